package dev.remotepath.spi;

import dev.remotepath.FileStat;
import java.util.Optional;

/**
 * Implemented by a stream from {@link RemoteFileSystem#openRead} whose response already said
 * what the file is (an S3 GET carries the stored mtime in its metadata, an HTTP GET its
 * {@code Last-Modified}): a copy takes the source's mtime from here instead of a separate stat.
 */
public interface StatReportingStream {

    /**
     * The file as the server described it when it answered this read; empty when it did not
     * (wrappers implement this interface and pass on what the stream they wrap reports).
     */
    Optional<FileStat> reportedStat();

    /** What {@code in} reports, if it is such a stream. */
    static Optional<FileStat> of(java.io.InputStream in) {
        return in instanceof StatReportingStream r ? r.reportedStat() : Optional.empty();
    }
}
