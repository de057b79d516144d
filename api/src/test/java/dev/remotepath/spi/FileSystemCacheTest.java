package dev.remotepath.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The providers' shared cache and close-once state (FileSystemCache, OpenState). */
class FileSystemCacheTest {

    /** Just enough of a file system: it is open until closed, and closing runs onClose once. */
    private static final class Closable implements RemoteFileSystem {
        final OpenState state = new OpenState();
        final Runnable onClose;
        final AtomicInteger closings = new AtomicInteger();

        Closable(Runnable onClose) {
            this.onClose = onClose;
        }

        @Override
        public void close() {
            if (state.close()) {
                closings.incrementAndGet();
                onClose.run();
            }
        }

        @Override
        public boolean isOpen() {
            return state.isOpen();
        }

        @Override
        public RemoteFileSystemProvider provider() {
            throw new UnsupportedOperationException();
        }

        @Override
        public String uriPrefix() {
            return "fake://";
        }

        @Override
        public Set<Capability> capabilities() {
            return Set.of();
        }

        @Override
        public FileStat stat(RemotePath path, boolean followLinks) {
            throw new UnsupportedOperationException();
        }

        @Override
        public DirectoryListing list(RemotePath directory, ListDetail detail) {
            throw new UnsupportedOperationException();
        }

        @Override
        public InputStream openRead(RemotePath file, long offset) {
            throw new UnsupportedOperationException();
        }

        @Override
        public OutputStream openWrite(RemotePath file, WriteMode mode) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void createDirectory(RemotePath directory) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void deleteFile(RemotePath file) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void deleteDirectory(RemotePath directory) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void rename(RemotePath source, RemotePath target, boolean replaceExisting) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void closingAnOldFileSystemNeverEvictsItsReplacement() throws Exception {
        FileSystemCache<String, Closable> cache = new FileSystemCache<>();
        Closable first = cache.get("k", (k, onClose) -> new Closable(onClose));
        first.state.close(); // closed, its onClose not run yet (another thread is closing it)
        Closable second = cache.get("k", (k, onClose) -> new Closable(onClose));
        assertThat(second).isNotSameAs(first);
        first.onClose.run(); // the old one's close finishes now
        assertThat(cache.get("k", (k, onClose) -> new Closable(onClose))).isSameAs(second);
        second.close();
        assertThat(cache.all()).isEmpty();
    }

    @Test
    void oneFileSystemPerKeyUnderConcurrencyAndCloseRunsOnce() throws Exception {
        FileSystemCache<String, Closable> cache = new FileSystemCache<>();
        AtomicInteger made = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Closable> got = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 16; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    go.await();
                    got.add(cache.get("k", (k, onClose) -> {
                        made.incrementAndGet();
                        try {
                            Thread.sleep(20); // a slow start (a connection): the others wait for it
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return new Closable(onClose);
                    }));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(made).hasValue(1);
        assertThat(got).hasSize(16).allSatisfy(f -> assertThat(f).isSameAs(got.getFirst()));
        Closable fs = got.getFirst();
        List<Thread> closers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            closers.add(Thread.ofVirtual().start(fs::close));
        }
        for (Thread t : closers) {
            t.join();
        }
        assertThat(fs.closings).hasValue(1);
        assertThat(cache.find(k -> true)).isEmpty();
    }
}
