package dev.remotepath;

import dev.remotepath.spi.WriteMode;
import java.nio.file.OpenOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * {@link RemotePath#newOutputStream}'s {@link StandardOpenOption}s read as NIO reads them: none
 * means CREATE, TRUNCATE_EXISTING, WRITE; CREATE_NEW fails on an existing file; APPEND appends;
 * without CREATE or CREATE_NEW the file must exist. Overwriting in place is not offered.
 */
record WriteOptions(WriteMode mode, boolean mayCreate) {

    static WriteOptions of(OpenOption[] options, RemotePath path) {
        Set<OpenOption> opts = Set.of(options);
        WriteMode mode;
        if (opts.contains(StandardOpenOption.CREATE_NEW)) {
            mode = WriteMode.CREATE_NEW;
        } else if (opts.contains(StandardOpenOption.APPEND)) {
            mode = WriteMode.CREATE_OR_APPEND;
        } else if (opts.isEmpty() || opts.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
            mode = WriteMode.CREATE_OR_TRUNCATE;
        } else {
            throw new UnsupportedOperationException("writing without TRUNCATE_EXISTING, APPEND or CREATE_NEW "
                    + "(overwriting in place) is not supported: " + path);
        }
        if (opts.contains(StandardOpenOption.READ)) {
            throw new IllegalArgumentException("READ is not a write option");
        }
        boolean mayCreate = opts.isEmpty() || opts.contains(StandardOpenOption.CREATE)
                || opts.contains(StandardOpenOption.CREATE_NEW);
        return new WriteOptions(mode, mayCreate);
    }
}
