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
 * access ({@code --enable-native-access=ALL-UNNAMED}, or {@code =dev.remotepath.local} on the
 * module path) and the platform is Linux x86-64/AArch64.
 * Binding costs ~100 ms of CPU, so in {@code auto} mode listings go through NIO (same answers)
 * until the process has listed {@code remotepath.local.ffmAfterEntries} entries (default
 * 50,000); then the lister is bound on a background thread and used from then on.
 *
 * <p>File names are bytes; those that are not UTF-8 are carried losslessly as
 * {@link NameBytes} escapes by both listers, and every operation reaches the very same file.
 */
public final class LocalFileSystem extends NioFileSystem {

    /** System property choosing the lister: {@code auto}, {@code ffm} or {@code nio}. */
    public static final String LISTER_PROPERTY = "remotepath.local.lister";

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.WRITE,
            Capability.ATOMIC_RENAME, Capability.SYMBOLIC_LINKS, Capability.SET_LAST_MODIFIED_TIME,
            Capability.POSIX_PERMISSIONS, Capability.SERVER_SIDE_COPY, Capability.IN_PROCESS));

    private static final class Holder {
        static final LocalFileSystem INSTANCE = new LocalFileSystem();
    }

    private final RemoteFileSystemProvider provider = new LocalFileSystemProvider();
    /** Null while listing through NIO: before the FFM lister is bound, or for good. */
    private volatile LinuxDirectoryLister lister;
    private volatile String listerDescription;
    private volatile Thread binder;
    private final boolean autoBind;
    private final java.util.concurrent.atomic.AtomicLong entriesBeforeBinding = new java.util.concurrent.atomic.AtomicLong();
    private final long bindAfterEntries = Long.getLong("remotepath.local.ffmAfterEntries", 50_000);

    private LocalFileSystem() {
        super(FileSystems.getDefault().getPath("/"), FileStat.EXACT);
        String choice = System.getProperty(LISTER_PROPERTY, "auto").toLowerCase(Locale.ROOT);
        boolean bindLater = false;
        switch (choice) {
            case "nio" -> listerDescription = "nio (forced by " + LISTER_PROPERTY + ")";
            case "ffm" -> {
                lister = new LinuxDirectoryLister(LinuxSyscalls.load());
                listerDescription = "ffm (forced by " + LISTER_PROPERTY + ")";
            }
            case "auto" -> {
                if (!LocalFileSystem.class.getModule().isNativeAccessEnabled()) {
                    listerDescription = "nio (native access not enabled: run with "
                            + "--enable-native-access=ALL-UNNAMED, or =dev.remotepath.local on the module path, "
                            + "for the FFM lister)";
                } else {
                    // Binding the downcalls costs ~100 ms of CPU in a fresh JVM, more than a short
                    // command lists in all. Listings go through NIO (same answers) until this
                    // process has listed enough entries for FFM to pay off; then it is bound on
                    // another thread, without making anyone wait.
                    listerDescription = "nio (FFM lister binds after " + bindAfterEntries + " listed entries)";
                    bindLater = true;
                }
            }
            default -> throw new IllegalArgumentException(
                    LISTER_PROPERTY + " must be auto, ffm or nio, not '" + choice + "'");
        }
        this.autoBind = bindLater;
        if (bindLater && bindAfterEntries <= 0) {
            startBinding();
        }
    }

    private synchronized void startBinding() {
        if (binder == null && lister == null) {
            listerDescription = "nio (FFM lister still binding)";
            binder = Thread.ofPlatform().daemon().name("remotepath-ffm-binder").start(this::bind);
        }
    }

    private void bind() {
        try {
            lister = new LinuxDirectoryLister(LinuxSyscalls.load());
            listerDescription = "ffm";
        } catch (UnsupportedOperationException | IllegalCallerException | LinkageError e) {
            listerDescription = "nio (FFM lister unavailable: " + e.getMessage() + ")";
        }
    }

    /** The one local file system of this JVM. */
    public static LocalFileSystem instance() {
        return Holder.INSTANCE;
    }

    /** Which lister serves listings now, and why. */
    public String listerDescription() {
        return listerDescription;
    }

    /**
     * In {@code auto} mode, binds the FFM lister now instead of after the first listings, and
     * waits for it (for benchmarks, and for long-running programs that know they will list a lot).
     */
    public void awaitBinding() {
        if (autoBind) {
            startBinding();
        }
        Thread b = binder;
        if (b != null) {
            try {
                b.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    protected Path nio(RemotePath p) throws IOException {
        String s = p.pathString();
        try {
            if (NameBytes.hasEscapes(s)) {
                return byBytes(s);
            }
            try {
                return Path.of(s);
            } catch (java.nio.file.InvalidPathException unmappable) {
                if (s.indexOf('\0') >= 0 || !NameBytes.isEncodable(s)) {
                    throw unmappable; // a lone surrogate stands for no bytes: never written as '?'
                }
                // NIO encodes names in the locale's charset: under LANG=C (ASCII) every
                // non-ASCII name is "unmappable". The file's name is its UTF-8 bytes all the same.
                return byBytes(s);
            }
        } catch (java.nio.file.InvalidPathException e) {
            throw notAPath(p, e);
        }
    }

    /** Only a file: URI carries a name's bytes (UTF-8, escapes as themselves) into a NIO path. */
    private static Path byBytes(String s) {
        return Path.of(URI.create("file://" + UriPaths.encodePath(s)));
    }

    /** Whether the JDK gives {@code unix:ctime} here (Linux, the BSDs, macOS). */
    private static final boolean UNIX_VIEW = FileSystems.getDefault().supportedFileAttributeViews().contains("unix");

    /**
     * NIO's stat, with the status-change time (ctime) the FFM lister gives as well: it proves a
     * file unchanged since a time (a sync into S3 decides from it without a HEAD, docs/sync.md).
     * Read second, so a change between the two reads shows as a later ctime, never an earlier one.
     */
    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        FileStat stat = super.stat(path, followLinks);
        if (!UNIX_VIEW || stat.changeTime().isPresent()) {
            return stat;
        }
        try {
            Object ctime = java.nio.file.Files.getAttribute(nio(path), "unix:ctime",
                    followLinks ? new java.nio.file.LinkOption[0] : new java.nio.file.LinkOption[] {java.nio.file.LinkOption.NOFOLLOW_LINKS});
            return ctime instanceof java.nio.file.attribute.FileTime t ? stat.toBuilder().changeTime(t.toInstant()).build() : stat;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return stat; // gone meanwhile, or no such view after all: the stat without it
        }
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
        LinuxDirectoryLister l = lister;
        if (l == null) {
            DirectoryListing viaNio = super.list(directory, detail);
            if (autoBind && binder == null && entriesBeforeBinding.addAndGet(viaNio.size()) >= bindAfterEntries) {
                startBinding();
            }
            return viaNio;
        }
        return l.list(directory, NameBytes.encode(directory.pathString()), detail);
    }

    @Override
    public DirectoryListing listChild(DirectoryListing parent, RemotePath directory, ListDetail detail)
            throws IOException {
        LinuxDirectoryLister l = lister;
        if (l != null) {
            DirectoryListing child = l.listChild(parent, directory, NameBytes.encode(directory.name()), detail);
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
