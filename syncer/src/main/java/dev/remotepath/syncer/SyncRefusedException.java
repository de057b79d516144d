package dev.remotepath.syncer;

import java.io.IOException;

/**
 * The sync refused to start because it would be unsafe: the source root is missing, not a
 * directory, or empty while extraneous target files would be deleted. Nothing was changed.
 */
public final class SyncRefusedException extends IOException {
    public SyncRefusedException(String message) {
        super(message);
    }
}
