package dev.remotepath.syncer;

import java.util.Objects;

/**
 * A failure during a sync, kept in the report rather than ending the run: the path below the
 * roots, what was being done, the error's message (never a credential), and the type of the
 * exception behind it when there was one (so a program decides on a type, never on English).
 */
public record SyncError(String relativePath, String operation, String message,
        java.util.Optional<Class<? extends Throwable>> exceptionType) {
    public SyncError {
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(exceptionType, "exceptionType");
    }

    /** An error the syncer found itself (a loop, a type change), with no exception behind it. */
    public SyncError(String relativePath, String operation, String message) {
        this(relativePath, operation, message, java.util.Optional.empty());
    }

    static SyncError of(String relativePath, String operation, Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
        return new SyncError(relativePath.isEmpty() ? "." : relativePath, operation, m, java.util.Optional.of(e.getClass()));
    }

    @Override
    public String toString() {
        return relativePath + ": " + operation + " failed: " + message;
    }
}
