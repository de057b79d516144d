package dev.remotepath.archive;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * The content of one entry of a new archive, gathered while it is written and added to the
 * archive whole once it is closed: a tar header needs the size before the bytes, a zip's local
 * header the size and CRC, and entries written at the same time (a sync's parallel transfers)
 * must not interleave in the one archive stream. Up to {@link #MEMORY_LIMIT} bytes stay in
 * memory; beyond that they go to a temporary file, deleted once the entry is added or dropped.
 * For a zip the bytes are deflated as they come, so what is kept is what the archive will hold.
 */
final class EntryContent extends OutputStream {

    /** Bytes an entry keeps in memory before it spills to a temporary file. */
    static final int MEMORY_LIMIT = 1 << 20;

    private final Deflater deflater;
    private final CRC32 crc = new CRC32();
    private final byte[] deflateBuffer;
    private final int memoryLimit;
    private byte[] memory = new byte[256];
    private int inMemory;
    private Path spill;
    private OutputStream spillOut;
    private long size;
    private long stored;
    private boolean finished;

    EntryContent(boolean deflate, int memoryLimit) {
        this.deflater = deflate ? new Deflater(Deflater.DEFAULT_COMPRESSION, true) : null;
        this.deflateBuffer = deflate ? new byte[8192] : null;
        this.memoryLimit = memoryLimit;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (finished) {
            throw new IOException("entry already finished");
        }
        crc.update(b, off, len);
        size += len;
        if (deflater == null) {
            keep(b, off, len);
            return;
        }
        deflater.setInput(b, off, len);
        while (!deflater.needsInput()) {
            keepDeflated(Deflater.NO_FLUSH);
        }
    }

    private void keepDeflated(int flush) throws IOException {
        int n = deflater.deflate(deflateBuffer, 0, deflateBuffer.length, flush);
        if (n > 0) {
            keep(deflateBuffer, 0, n);
        }
    }

    private void keep(byte[] b, int off, int len) throws IOException {
        stored += len;
        if (spillOut == null && inMemory + len <= memoryLimit) {
            if (inMemory + len > memory.length) {
                memory = java.util.Arrays.copyOf(memory, Math.min(memoryLimit, Math.max(inMemory + len, memory.length * 2)));
            }
            System.arraycopy(b, off, memory, inMemory, len);
            inMemory += len;
            return;
        }
        if (spillOut == null) {
            spill = Files.createTempFile("rpath-entry-", ".tmp");
            spill.toFile().deleteOnExit(); // a run ended by Ctrl-C leaves no gathered entry behind
            spillOut = new java.io.BufferedOutputStream(Files.newOutputStream(spill), 64 * 1024);
            spillOut.write(memory, 0, inMemory);
            memory = null;
        }
        spillOut.write(b, off, len);
    }

    /** Ends the content: the deflater's last bytes are kept, the temporary file flushed. */
    void finish() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        if (deflater != null) {
            deflater.finish();
            while (!deflater.finished()) {
                keepDeflated(Deflater.NO_FLUSH);
            }
            deflater.end();
        }
        if (spillOut != null) {
            spillOut.close();
        }
    }

    /** Bytes of content as written. */
    long size() {
        return size;
    }

    /** Bytes the archive stores (deflated for a zip). */
    long storedSize() {
        return stored;
    }

    long crc() {
        return crc.getValue();
    }

    /** Whether the stored bytes are deflated. */
    boolean deflated() {
        return deflater != null;
    }

    /** Copies the stored bytes to {@code out}. */
    void writeTo(OutputStream out) throws IOException {
        if (spill == null) {
            out.write(memory, 0, inMemory);
        } else {
            try (var in = Files.newInputStream(spill)) {
                in.transferTo(out);
            }
        }
    }

    /** Frees what the content holds; its temporary file is deleted. */
    void discard() {
        if (deflater != null) {
            deflater.end();
        }
        memory = null;
        try {
            if (spillOut != null) {
                spillOut.close();
            }
        } catch (IOException ignored) {
            // deleted next anyway
        }
        if (spill != null) {
            try {
                Files.deleteIfExists(spill);
            } catch (IOException e) {
                spill.toFile().deleteOnExit();
            }
        }
    }
}
