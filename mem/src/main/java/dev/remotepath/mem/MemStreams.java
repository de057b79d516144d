package dev.remotepath.mem;

import dev.remotepath.RemotePath;
import dev.remotepath.mem.MemNode.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Objects;

/**
 * The streams over a mem file. Each call takes the volume's lock for its copy alone, so a reader
 * sees every write that finished before its call and a write is never seen in part. A stream
 * holds its file, not its name: a file deleted or renamed while open is read and written on,
 * as on a POSIX disk.
 */
final class MemStreams {

    private MemStreams() {
    }

    /** Reads a file from an offset. */
    static final class Reader extends InputStream {
        private final MemTree tree;
        private final File file;
        private final RemotePath path;
        private long position;
        private boolean closed;

        Reader(MemTree tree, File file, RemotePath path, long offset) {
            this.tree = tree;
            this.file = file;
            this.path = path;
            this.position = offset;
            tree.opened(this);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            ensureOpen();
            tree.readLock.lock();
            try {
                int n = file.read(position, b, off, len);
                if (n > 0) {
                    position += n;
                }
                return n;
            } finally {
                tree.readLock.unlock();
            }
        }

        @Override
        public long skip(long n) throws IOException {
            ensureOpen();
            tree.readLock.lock();
            try {
                long skipped = Math.max(0, Math.min(n, file.size - position));
                position += skipped;
                return skipped;
            } finally {
                tree.readLock.unlock();
            }
        }

        @Override
        public int available() throws IOException {
            ensureOpen();
            tree.readLock.lock();
            try {
                return (int) Math.max(0, Math.min(Integer.MAX_VALUE, file.size - position));
            } finally {
                tree.readLock.unlock();
            }
        }

        private void ensureOpen() throws IOException {
            tree.state.requireOpen();
            if (closed) {
                throw new IOException("stream closed");
            }
        }

        @Override
        public void close() {
            closed = true;
            tree.closed(this);
        }

        @Override
        public String toString() {
            return path + " (reading)";
        }
    }

    /** Writes a file from an offset, or at its end on every write (append). */
    static final class Writer extends OutputStream {
        private final MemTree tree;
        private final File file;
        private final RemotePath path;
        private final boolean append;
        private final Instant lastModified;
        private long position;
        private boolean closed;

        /** @param lastModified the time the file is to carry once closed; null for the time of the last write */
        Writer(MemTree tree, File file, RemotePath path, boolean append, Instant lastModified) {
            this.tree = tree;
            this.file = file;
            this.path = path;
            this.append = append;
            this.lastModified = lastModified;
            tree.opened(this);
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            ensureOpen();
            tree.writeLock.lock();
            try {
                if (append) {
                    position = file.size;
                }
                if (file.linked) {
                    tree.reserve(path, Math.max(0, position + len - file.size));
                }
                file.write(position, b, off, len);
                position += len;
                file.setModified(Instant.now());
            } finally {
                tree.writeLock.unlock();
            }
        }

        private void ensureOpen() throws IOException {
            tree.state.requireOpen();
            if (closed) {
                throw new IOException("stream closed: " + path);
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            tree.closed(this);
            if (lastModified != null && tree.state.isOpen()) {
                tree.writeLock.lock();
                try {
                    file.setModified(lastModified);
                } finally {
                    tree.writeLock.unlock();
                }
            }
        }

        @Override
        public String toString() {
            return path + " (writing)";
        }
    }
}
