package dev.remotepath.azure;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.models.BlobHttpHeaders;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.options.BlockBlobCommitBlockListOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.options.BlockBlobStageBlockOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.AbortableOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * An upload that nothing sees before {@link #close()}: up to one block it is a single Put Blob;
 * beyond, each full block is staged (Put Block, {@link AzureOptions#uploadConcurrency()} at
 * once) and close commits the block list, which publishes the blob atomically with its
 * metadata ({@code mtime}) and the Content-MD5 computed on the way. Memory is bounded: at most
 * the blocks in flight plus the one filling, which grows from 64 KiB so that small files cost
 * small buffers. A stream cannot know its size, and Azure takes 50,000 blocks: blocks double in
 * size every {@value #BLOCKS_PER_STEP} blocks, up to {@value #MAX_GROWTH} times
 * {@code blockSize} (Azure lets a blob's blocks differ in size), so the default 4 MiB blocks carry
 * ~1.2 TiB instead of 195 GiB without an option, at 32 MiB blocks only past 137 GiB. {@link #abort()} commits nothing: the blob keeps its previous content, and the
 * service discards uncommitted blocks itself (within a week, or at the blob's next commit).
 */
final class AzureUploadStream extends AbortableOutputStream {

    private static final int FIRST_BUFFER = 64 * 1024;

    /** Blocks staged before the block size doubles. */
    static final int BLOCKS_PER_STEP = 5_000;

    /** The largest block, as a multiple of {@code blockSize}. */
    static final int MAX_GROWTH = 8;

    private final AzureFileSystem fs;
    private final RemotePath file;
    private final BlockBlobClient blob;
    private final Map<String, String> metadata;
    private final boolean createOnly;
    /** {@link AzureOptions#blockSize()}: the first blocks' size, which later ones double from. */
    private final int blockSize;
    private final int blocksPerStep;
    private final MessageDigest md5;
    private final String uploadId = UUID.randomUUID().toString();
    private final List<String> blockIds = new ArrayList<>();
    private final List<Future<?>> staged = new ArrayList<>();
    private final Semaphore inFlight;
    private byte[] buffer = new byte[0];
    private int filled;
    private boolean ended;

    AzureUploadStream(AzureFileSystem fs, RemotePath file, BlockBlobClient blob, Map<String, String> metadata,
            boolean createOnly) {
        this(fs, file, blob, metadata, createOnly, BLOCKS_PER_STEP);
    }

    /** @param blocksPerStep blocks staged before their size doubles (tests make it small) */
    AzureUploadStream(AzureFileSystem fs, RemotePath file, BlockBlobClient blob, Map<String, String> metadata,
            boolean createOnly, int blocksPerStep) {
        this.blocksPerStep = blocksPerStep;
        this.fs = fs;
        this.file = file;
        this.blob = blob;
        this.metadata = metadata;
        this.createOnly = createOnly;
        this.blockSize = fs.options().blockSize();
        this.inFlight = new Semaphore(fs.options().uploadConcurrency());
        try {
            this.md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
        fs.streamOpened();
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (ended) {
            throw new IOException(file + ": stream closed");
        }
        fs.requireOpen();
        md5.update(b, off, len);
        while (len > 0) {
            if (filled == buffer.length) {
                if (buffer.length == blockSize(blockSize, blockIds.size(), blocksPerStep)) {
                    stage();
                } else {
                    buffer = java.util.Arrays.copyOf(buffer, (int) Math.min(blockSize,
                            Math.max(FIRST_BUFFER, 2L * buffer.length)));
                }
            }
            int n = Math.min(len, buffer.length - filled);
            System.arraycopy(b, off, buffer, filled, n);
            filled += n;
            off += n;
            len -= n;
        }
    }

    /** Stages the filled buffer as the next block, waiting while as many are in flight as allowed. */
    private void stage() throws IOException {
        stage(false);
    }

    /** @param last the upload's final block: no buffer is needed after it */
    private void stage(boolean last) throws IOException {
        if (blockIds.size() >= AzureOptions.MAX_BLOCKS) {
            throw new IOException(file + ": larger than Azure's 50,000 blocks hold (" + capacity(blockSize, blocksPerStep)
                    + " bytes, in blocks growing from " + blockSize + " to " + blockSize(blockSize, AzureOptions.MAX_BLOCKS - 1,
                            blocksPerStep) + " bytes); raise AzureOptions.blockSize");
        }
        failIfStagingFailed();
        String id = Base64.getEncoder().encodeToString((uploadId + String.format("-%06d", blockIds.size()))
                .getBytes(StandardCharsets.US_ASCII));
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(file + ": interrupted while uploading");
        }
        byte[] data = buffer;
        int length = filled;
        blockIds.add(id);
        try {
            staged.add(fs.blockUploads.submit(() -> {
                try {
                    blob.stageBlockWithResponse(new BlockBlobStageBlockOptions(id,
                            BinaryData.fromByteBuffer(ByteBuffer.wrap(data, 0, length))), null, Context.NONE);
                    return null;
                } finally {
                    inFlight.release();
                }
            }));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            inFlight.release();
            throw new java.nio.file.ClosedFileSystemException();
        }
        buffer = last ? null : new byte[blockSize(blockSize, blockIds.size(), blocksPerStep)];
        filled = 0;
    }

    /**
     * The size of block {@code index} (from 0) of an upload: {@code base}, doubled every
     * {@code perStep} blocks up to {@value #MAX_GROWTH} times {@code base} and Azure's largest.
     */
    static int blockSize(int base, int index, int perStep) {
        long factor = Math.min(MAX_GROWTH, 1L << Math.min(30, index / perStep));
        return (int) Math.min(AzureOptions.MAX_BLOCK_SIZE, base * factor);
    }

    /** The most one upload's 50,000 blocks hold. */
    static long capacity(int base, int perStep) {
        long total = 0;
        for (int i = 0; i < AzureOptions.MAX_BLOCKS; i++) {
            total += blockSize(base, i, perStep);
        }
        return total;
    }

    private void failIfStagingFailed() throws IOException {
        for (Future<?> f : staged) {
            if (f.isDone()) {
                await(f);
            }
        }
    }

    private void await(Future<?> f) throws IOException {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(file + ": interrupted while uploading");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw AzureErrors.translate(r, file.toString());
            }
            throw new IOException(file + ": staging a block failed", e.getCause());
        }
    }

    @Override
    public void close() throws IOException {
        if (ended) {
            return;
        }
        ended = true;
        try {
            fs.requireOpen();
            BlobHttpHeaders headers = new BlobHttpHeaders().setContentType(AzureFileSystem.OCTET_STREAM)
                    .setContentMd5(md5.digest());
            BlobRequestConditions conditions = createOnly ? new BlobRequestConditions().setIfNoneMatch("*") : null;
            try {
                if (blockIds.isEmpty()) {
                    // a ByteArrayInputStream can be reset, so the SDK can send it again on a retry
                    blob.uploadWithResponse(new BlockBlobSimpleUploadOptions(new java.io.ByteArrayInputStream(buffer, 0,
                            filled), filled).setHeaders(headers).setMetadata(metadata)
                            .setRequestConditions(conditions), null, Context.NONE);
                } else {
                    if (filled > 0) {
                        stage(true);
                    }
                    for (Future<?> f : staged) {
                        await(f);
                    }
                    blob.commitBlockListWithResponse(new BlockBlobCommitBlockListOptions(blockIds).setHeaders(headers)
                            .setMetadata(metadata).setRequestConditions(conditions), null, Context.NONE);
                }
            } catch (RuntimeException e) {
                throw createOnly ? AzureErrors.createOnly(e, file.toString()) : AzureErrors.translate(e, file.toString());
            }
            fs.published(file);
        } catch (IOException | RuntimeException e) {
            cancelStaging();
            throw e;
        } finally {
            buffer = null;
            fs.streamEnded();
        }
    }

    @Override
    public void abort() {
        if (ended) {
            return;
        }
        ended = true;
        cancelStaging();
        buffer = null;
        fs.streamEnded();
    }

    private void cancelStaging() {
        for (Future<?> f : staged) {
            f.cancel(true);
        }
    }
}
