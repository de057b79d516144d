package dev.remotepath.syncer;

import java.util.Objects;

/**
 * A failure during a sync, kept in the report rather than ending the run: the path below the
 * roots, what was being done, and the error's message (never a credential).
 */
public record SyncError(String relativePath, String operation, String message) {
    public SyncError {
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(message, "message");
    }

    static SyncError of(String relativePath, String operation, Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
        return new SyncError(relativePath.isEmpty() ? "." : relativePath, operation, m);
    }

    @Override
    public String toString() {
        return relativePath + ": " + operation + " failed: " + message;
    }
}
