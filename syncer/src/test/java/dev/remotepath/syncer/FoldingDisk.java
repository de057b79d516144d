package dev.remotepath.syncer;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import com.google.common.jimfs.PathType;
import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.FileSystemOptions;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.nio.NioFileSystem;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/**
 * A disk that looks names up as macOS's APFS and Windows' NTFS do: without regard to case or
 * Unicode normalization ({@code Report.txt} finds {@code report.txt}, a decomposed {@code café}
 * finds the composed one), keeping each name as it was first written. Google's jimfs,
 * configured so, behind the library's NIO primitives, the same ones the local backend runs.
 */
final class FoldingDisk extends NioFileSystem {

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.WRITE,
            Capability.ATOMIC_RENAME, Capability.SET_LAST_MODIFIED_TIME, Capability.IN_PROCESS));

    private final FileSystem jimfs;

    private FoldingDisk(FileSystem jimfs) {
        super(jimfs.getPath("/"), FileStat.EXACT);
        this.jimfs = jimfs;
    }

    /** The root of a new, empty folding disk. */
    static RemotePath root() {
        FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix().toBuilder()
                .setRoots("/")
                .setWorkingDirectory("/")
                .setAttributeViews("basic")
                .setNameCanonicalNormalization(com.google.common.jimfs.PathNormalization.NFC,
                        com.google.common.jimfs.PathNormalization.CASE_FOLD_ASCII)
                .build());
        return new FoldingDisk(jimfs).path("/");
    }

    /** The disk's own file system, to look at it as the user would. */
    Path nioRoot() {
        return jimfs.getPath("/");
    }

    @Override
    public RemoteFileSystemProvider provider() {
        return new RemoteFileSystemProvider() {
            @Override
            public Set<String> schemes() {
                return Set.of("fold");
            }

            @Override
            public RemotePath getPath(URI uri, FileSystemOptions options) throws IOException {
                throw new UnsupportedOperationException("a test's disk: no URIs");
            }
        };
    }

    @Override
    public String uriPrefix() {
        return "fold://";
    }

    @Override
    public boolean isOpen() {
        return jimfs.isOpen();
    }

    @Override
    public void close() throws IOException {
        jimfs.close();
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }
}
