package dev.remotepath.spi;

/** How {@link RemoteFileSystem#openWrite} treats an existing file. */
public enum WriteMode {
    /** Fail with {@link java.nio.file.FileAlreadyExistsException} if the file exists. */
    CREATE_NEW,
    /** Create, or truncate an existing file. */
    CREATE_OR_TRUNCATE,
    /** Create, or append to an existing file. */
    CREATE_OR_APPEND
}
