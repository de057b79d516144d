package dev.remotepath;

import dev.remotepath.spi.ListDetail;
import java.io.IOException;
import java.util.Objects;

/**
 * How {@link RemotePath#walk(WalkOptions)} traverses a tree.
 *
 * @param maxDepth     how deep to go: 1 lists the start directory only
 * @param followLinks  descend into directories reached through symbolic links (loops are
 *                     detected and reported as {@link java.nio.file.FileSystemLoopException})
 * @param detail       how much metadata each entry needs
 * @param errorHandler what to do when a directory cannot be listed
 */
public record WalkOptions(int maxDepth, boolean followLinks, ListDetail detail, ErrorHandler errorHandler) {

    /** Decides whether a directory's listing failure ends the walk (rethrow) or is skipped. */
    @FunctionalInterface
    public interface ErrorHandler {
        /** Rethrow to end the walk; return to skip the directory. */
        void onError(RemotePath directory, IOException error) throws IOException;

        /** The default: the first failure ends the walk. */
        ErrorHandler RETHROW = (dir, e) -> {
            throw e;
        };
    }

    public WalkOptions {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("maxDepth must be at least 1: " + maxDepth);
        }
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(errorHandler, "errorHandler");
    }

    /** Unlimited depth, links not followed, types only, failures rethrown. */
    public static WalkOptions defaults() {
        return new WalkOptions(Integer.MAX_VALUE, false, ListDetail.TYPES, ErrorHandler.RETHROW);
    }

    public WalkOptions withMaxDepth(int depth) {
        return new WalkOptions(depth, followLinks, detail, errorHandler);
    }

    public WalkOptions withFollowLinks(boolean follow) {
        return new WalkOptions(maxDepth, follow, detail, errorHandler);
    }

    public WalkOptions withDetail(ListDetail d) {
        return new WalkOptions(maxDepth, followLinks, d, errorHandler);
    }

    public WalkOptions withErrorHandler(ErrorHandler h) {
        return new WalkOptions(maxDepth, followLinks, detail, h);
    }
}
