package dev.remotepath.mem;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.nio.NioFileSystem;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.util.EnumSet;
import java.util.Set;

/**
 * One {@code mem://} volume: a jimfs file system with Unix semantics (symbolic links,
 * POSIX permissions, nanosecond times). Closing it frees its memory; the volume name can then
 * be used again for a fresh, empty volume.
 */
public final class MemFileSystem extends NioFileSystem {

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.WRITE,
            Capability.ATOMIC_RENAME, Capability.SYMBOLIC_LINKS, Capability.SET_LAST_MODIFIED_TIME,
            Capability.POSIX_PERMISSIONS, Capability.SERVER_SIDE_COPY, Capability.IN_PROCESS));

    private final String volume;
    private final FileSystem jimfs;
    private final RemoteFileSystemProvider provider;

    MemFileSystem(String volume, RemoteFileSystemProvider provider) {
        // jimfs's unix configuration creates its working directory, /work: every new volume
        // would list a directory nobody made.
        this(volume, provider, Jimfs.newFileSystem(Configuration.unix().toBuilder()
                .setWorkingDirectory("/")
                .setAttributeViews("basic", "posix")
                .setMaxSize(64L * 1024 * 1024 * 1024)
                .build()));
    }

    private MemFileSystem(String volume, RemoteFileSystemProvider provider, FileSystem jimfs) {
        super(jimfs.getPath("/"), dev.remotepath.FileStat.EXACT);
        this.volume = volume;
        this.jimfs = jimfs;
        this.provider = provider;
    }

    @Override
    public RemoteFileSystemProvider provider() {
        return provider;
    }

    @Override
    public String uriPrefix() {
        return "mem://" + UriPaths.encodePath(volume);
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public boolean isOpen() {
        return jimfs.isOpen();
    }

    @Override
    public void close() throws IOException {
        MemFileSystemProvider.forget(volume, this);
        jimfs.close();
    }

    @Override
    public String toString() {
        return "MemFileSystem[" + uriPrefix() + "]";
    }
}
