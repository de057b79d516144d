package dev.remotepath;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One primitive call on a file system, as {@link FileSystemEvents} see it: what was asked, of
 * which path (and, for a rename or a server-side copy, to which). The instance passed to
 * {@code started} is the one passed to its {@code finished} or {@code failed}, so a listener can
 * pair them by identity.
 *
 * @param operation the primitive
 * @param path      the path it was asked of (the source of a rename or copy)
 * @param target    the other path of a rename or server-side copy; empty otherwise
 */
public record FileSystemCall(Operation operation, RemotePath path, Optional<RemotePath> target) {

    public FileSystemCall {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(target, "target");
    }

    /**
     * The primitives of the SPI. For {@link #READ} and {@link #WRITE} a call lasts from the
     * stream's opening to its close and its amount is the content bytes moved; for {@link #LIST}
     * and {@link #LIST_TREE} from the request to the listing's close, the amount being the
     * entries handed over; for {@link #DELETE_FILES} the amount is the files in the batch.
     */
    public enum Operation {
        STAT, LIST, LIST_TREE, READ, WRITE, CREATE_DIRECTORY, DELETE_FILE, DELETE_FILES, DELETE_DIRECTORY, RENAME,
        SET_LAST_MODIFIED_TIME, SET_PERMISSIONS, CREATE_SYMBOLIC_LINK, READ_SYMBOLIC_LINK, REAL_PATH, NATIVE_CHECKSUM,
        COPY_FILE, STORE_SPACE;

        /** The name in lower case with dashes ({@code set-last-modified-time}), for log lines and metric tags. */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }
}
