package dev.remotepath.syncer;

import dev.remotepath.RemotePath;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One step of a sync: what is done to which target path, and why. {@link PathSyncer#plan()}
 * returns these without doing them; listeners see each as it starts and ends.
 *
 * @param kind         what is done
 * @param relativePath the path below the roots, '/'-separated
 * @param source       the source path, when the action reads one
 * @param target       the target path acted on
 * @param size         the bytes to transfer, when known
 * @param reason       why, in words ("new", "size differs", "mtime differs", "extraneous"...)
 */
public record SyncAction(Kind kind, String relativePath, Optional<RemotePath> source, RemotePath target,
        OptionalLong size, String reason) {

    /** The kinds of action. */
    public enum Kind {
        /** Copy a file that the target lacks. */
        COPY_NEW,
        /** Replace a target file whose content differs. */
        COPY_UPDATE,
        /** Set the target's mtime: the content was found equal. */
        FIX_MTIME,
        /** Create a directory. */
        MKDIR,
        /** Create or replace a symbolic link. */
        LINK,
        /** Delete an extraneous target file or link. */
        DELETE_FILE,
        /** Delete an extraneous target directory with everything in it. */
        DELETE_DIRECTORY,
        /** Replace a target entry of another type (file became directory, or the reverse). */
        REPLACE_TYPE
    }

    public SyncAction {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(reason, "reason");
    }

    /** True for the actions that remove something from the target. */
    public boolean deletes() {
        return kind == Kind.DELETE_FILE || kind == Kind.DELETE_DIRECTORY || kind == Kind.REPLACE_TYPE;
    }
}
