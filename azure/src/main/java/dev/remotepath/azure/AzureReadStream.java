package dev.remotepath.azure;

import com.azure.core.util.Context;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.options.BlobInputStreamOptions;
import com.azure.storage.blob.specialized.BlobInputStream;
import dev.remotepath.IsDirectoryException;
import dev.remotepath.RemotePath;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;

/**
 * A ranged read of one blob: the SDK's chunked stream (each chunk one Get Blob of at most 4 MiB,
 * each pinned to the ETag the first one saw, so a blob replaced mid-read fails rather than
 * mixing versions), with failures translated and the stream counted while open.
 */
final class AzureReadStream extends FilterInputStream {

    private static final int MAX_CHUNK = 4 * 1024 * 1024;

    private final AzureFileSystem fs;
    private final RemotePath file;
    private boolean closed;

    private AzureReadStream(AzureFileSystem fs, RemotePath file, InputStream in) {
        super(in);
        this.fs = fs;
        this.file = file;
        fs.streamOpened();
    }

    /** @param length bytes to read at most, -1 for all to the end */
    static InputStream open(AzureFileSystem fs, RemotePath file, String name, long offset, long length)
            throws IOException {
        BlobInputStreamOptions o = new BlobInputStreamOptions()
                .setRange(new BlobRange(offset, length < 0 ? null : length))
                .setBlockSize(Math.min(fs.options().blockSize(), MAX_CHUNK));
        BlobInputStream in;
        try {
            in = fs.blob(name).openInputStream(o, Context.NONE);
        } catch (RuntimeException e) {
            if (AzureErrors.isNotFound(e) && !BlobErrorCode.CONTAINER_NOT_FOUND.equals(AzureErrors.code(e))) {
                if (fs.directoryExists(file)) {
                    throw new IsDirectoryException(file.toString());
                }
                throw new NoSuchFileException(file.toString());
            }
            if (BlobErrorCode.INVALID_RANGE.equals(AzureErrors.code(e))) {
                return InputStream.nullInputStream(); // offset at or past the end
            }
            throw AzureErrors.translate(e, file.toString());
        }
        BlobProperties p = in.getProperties();
        if (p != null && AzureBlobStats.isMarker(name, p.getBlobSize(), p.getMetadata())) {
            in.close();
            throw new IsDirectoryException(file.toString());
        }
        return new AzureReadStream(fs, file, in);
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (IOException e) {
            throw translated(e);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            return super.read(b, off, len);
        } catch (IOException e) {
            throw translated(e);
        }
    }

    private IOException translated(IOException e) {
        return e.getCause() instanceof RuntimeException r ? AzureErrors.translate(r, file.toString()) : e;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            super.close();
        } finally {
            fs.streamEnded();
        }
    }
}
