package dev.remotepath.local;

import dev.remotepath.FileStat;
import dev.remotepath.NameBytes;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.local.linux.LinuxDirectoryLister;
import dev.remotepath.local.linux.LinuxSyscalls;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.nio.NioFileSystem;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The local disk. Reads, writes, renames (atomic), links, times and permissions go through
 * NIO; listings go through {@link LinuxDirectoryLister} on Linux (types from
 * {@code getdents64}, {@code statx} only for what the caller needs, children opened with
 * {@code openat}) and through NIO elsewhere or when native access is not granted.
 *
 * <p>The lister is chosen once, by the system property {@value #LISTER_PROPERTY}: {@code ffm}
 * or {@code nio} forces one, {@code auto} (the default) takes FFM when this module has native
 * access ({@code --enable-native-access=ALL-UNNAMED}) and the platform is Linux x86-64/AArch64.
 *
 * <p>File names are bytes; those that are not UTF-8 are carried losslessly as
 * {@link NameBytes} escapes by both listers, and every operation reaches the very same file.
 */
public final class LocalFileSystem extends NioFileSystem {

    /** System property choosing the lister: {@code auto}, {@code ffm} or {@code nio}. */
    public static final String LISTER_PROPERTY = "remotepath.local.lister";

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.WRITE,
            Capability.ATOMIC_RENAME, Capability.SYMBOLIC_LINKS, Capability.SET_LAST_MODIFIED_TIME,
            Capability.POSIX_PERMISSIONS, Capability.SERVER_SIDE_COPY));

    private static final class Holder {
        static final LocalFileSystem INSTANCE = new LocalFileSystem();
    }

    private final RemoteFileSystemProvider provider = new LocalFileSystemProvider();
    private final LinuxDirectoryLister lister; // null when listing through NIO
    private final String listerDescription;

    private LocalFileSystem() {
        super(FileSystems.getDefault().getPath("/"), FileStat.EXACT);
        String choice = System.getProperty(LISTER_PROPERTY, "auto").toLowerCase(Locale.ROOT);
        LinuxDirectoryLister chosen = null;
        String why;
        switch (choice) {
            case "nio" -> why = "nio (forced by " + LISTER_PROPERTY + ")";
            case "ffm" -> {
                chosen = new LinuxDirectoryLister(LinuxSyscalls.load());
                why = "ffm (forced by " + LISTER_PROPERTY + ")";
            }
            case "auto" -> {
                if (!LocalFileSystem.class.getModule().isNativeAccessEnabled()) {
                    why = "nio (native access not enabled: run with --enable-native-access=ALL-UNNAMED for the FFM lister)";
                } else {
                    String reason;
                    try {
                        chosen = new LinuxDirectoryLister(LinuxSyscalls.load());
                        reason = "ffm";
                    } catch (UnsupportedOperationException | IllegalCallerException | LinkageError e) {
                        reason = "nio (FFM lister unavailable: " + e.getMessage() + ")";
                    }
                    why = reason;
                }
            }
            default -> throw new IllegalArgumentException(LISTER_PROPERTY + " must be auto, ffm or nio, not '" + choice + "'");
        }
        this.lister = chosen;
        this.listerDescription = why;
    }

    /** The one local file system of this JVM. */
    public static LocalFileSystem instance() {
        return Holder.INSTANCE;
    }

    /** Which lister serves listings, and why: for diagnostics and benchmarks. */
    public String listerDescription() {
        return listerDescription;
    }

    @Override
    protected Path nio(RemotePath p) {
        String s = p.pathString();
        if (NameBytes.hasEscapes(s)) {
            // Only a file: URI carries raw bytes into a NIO path.
            return Path.of(URI.create("file://" + UriPaths.encodePath(s)));
        }
        return Path.of(s);
    }

    @Override
    protected String nameOf(Path child) {
        String name = child.getFileName().toString();
        if (name.indexOf('\uFFFD') < 0) {
            return name;
        }
        // NIO decoded invalid UTF-8 lossily; its URI still has the raw bytes.
        String raw = child.toUri().getRawPath();
        if (raw.endsWith("/")) {
            raw = raw.substring(0, raw.length() - 1);
        }
        return UriPaths.decode(raw.substring(raw.lastIndexOf('/') + 1));
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        if (lister == null) {
            return super.list(directory, detail);
        }
        return lister.list(directory, NameBytes.encode(directory.pathString()), detail);
    }

    @Override
    public DirectoryListing listChild(DirectoryListing parent, RemotePath directory, ListDetail detail)
            throws IOException {
        if (lister != null) {
            DirectoryListing child = lister.listChild(parent, directory, NameBytes.encode(directory.name()), detail);
            if (child != null) {
                return child;
            }
        }
        return list(directory, detail);
    }

    @Override
    public RemoteFileSystemProvider provider() {
        return provider;
    }

    @Override
    public String uriPrefix() {
        return "file://";
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    /** The local file system cannot be closed; this does nothing. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "LocalFileSystem[lister=" + listerDescription + "]";
    }
}
