package dev.remotepath.tree;

import dev.remotepath.BackendLimits;
import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.AbortableOutputStream;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.StatReportingStream;
import dev.remotepath.spi.WriteAttributes;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.ThreadLocalRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Copies one regular file between any two backends so that it "loses nothing": the target
 * appears under its final name only when complete (written to a temporary sibling and renamed
 * into place where the backend renames atomically, or published by the backend's own atomic
 * write), the previous target survives a failure, and the temporary is removed.
 * The source's modification time is carried over where the target can set it, and its
 * permission bits, where both sides keep them, go with the creation of the new file (the
 * target's umask applying, as {@code cp}'s and {@code sftp put}'s do), so a copy is never
 * readable by more than its source, even while it is written.
 */
public final class FileTransfer {

    /** Times listed this coarsely are an index page's display of the file's time, not the time itself. */
    private static final java.time.Duration DISPLAYED = java.time.Duration.ofMinutes(1);

    /** Temporary siblings are named {@code .<name>.<random>.rptmp}; the suffix lets tools recognize leftovers. */
    public static final String TEMPORARY_SUFFIX = ".rptmp";

    private static final int BUFFER = 128 * 1024;

    private FileTransfer() {
    }

    /**
     * True when {@code fs} keeps directories of its own whose modification time can be set:
     * a tree copy or sync then gives each directory its source's time once its contents are
     * written (writing them changes it). Not on backends whose directories are implied by
     * their files' names (S3), which have no time to set.
     */
    public static boolean keepsDirectoryTimes(RemoteFileSystem fs) {
        Set<Capability> caps = fs.capabilities();
        return caps.contains(Capability.SET_LAST_MODIFIED_TIME) && caps.contains(Capability.WRITE)
                && !caps.contains(Capability.IMPLICIT_DIRECTORIES);
    }

    /**
     * Copies the regular file {@code source} to {@code target}.
     *
     * @param sourceStat what is known of the source (from its listing); its mtime is reused
     *                   rather than stat'ed again, and stat'ed only if unknown and needed
     * @param replace    replace an existing target file, else fail with
     *                   {@link FileAlreadyExistsException}
     * @param progress   receives the number of bytes of each chunk written
     * @return the number of content bytes read from the source (0 after a server-side copy)
     */
    public static long copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replace,
            LongConsumer progress) throws IOException {
        // A place in each backend's transfer limit (none set: no wait), held for the whole copy.
        try (BackendLimits.Permit place = BackendLimits.transfer(source, target)) {
            return copyHoldingPlace(source, sourceStat, target, replace, progress);
        }
    }

    private static long copyHoldingPlace(RemotePath source, FileStat sourceStat, RemotePath target, boolean replace,
            LongConsumer progress) throws IOException {
        RemoteFileSystem tfs = target.fileSystem();
        if (source.sameFileSystemAs(target) && tfs.capabilities().contains(Capability.SERVER_SIDE_COPY)
                && tfs.copyFile(source, sourceStat, target, replace)) {
            return 0;
        }
        boolean setTime = tfs.capabilities().contains(Capability.SET_LAST_MODIFIED_TIME);
        boolean viaRename = RenameOver.canRename(tfs);
        // Written in place (no rename), CREATE_NEW itself refuses an existing target.
        RemotePath written = viaRename ? temporarySibling(target) : target;
        WriteMode mode = viaRename || !replace ? WriteMode.CREATE_NEW : WriteMode.CREATE_OR_TRUNCATE;
        long copied;
        OutputStream out = null;
        Optional<Instant> mtime = sourceStat.lastModified();
        boolean timeWithContent = false;
        if (viaRename) {
            Temporaries.register(written);
        }
        try {
            try (InputStream in = source.fileSystem().openReadAll(source, sourceStat)) {
                if (setTime && mtime.isPresent() && sourceStat.lastModifiedPrecision().compareTo(DISPLAYED) >= 0) {
                    // A page's displayed time (minutes, its zone inferred): the read's own answer is
                    // the server's record of the file, to the second, where it gives one.
                    Optional<FileStat> reported = StatReportingStream.of(in);
                    if (reported.isPresent() && reported.get().lastModified().isPresent()
                            && reported.get().lastModifiedPrecision().compareTo(DISPLAYED) < 0) {
                        mtime = reported.get().lastModified();
                    }
                }
                if (setTime && mtime.isEmpty()) {
                    // The read's response may already say (S3, HTTP GETs carry it); stat only where it cannot.
                    mtime = StatReportingStream.of(in).flatMap(FileStat::lastModified);
                    if (mtime.isEmpty()) {
                        mtime = source.fileSystem().stat(source, true).lastModified();
                    }
                }
                timeWithContent = setTime && mtime.isPresent() && tfs.capabilities().contains(Capability.MTIME_ON_WRITE);
                WriteAttributes asked = new WriteAttributes(timeWithContent ? mtime : Optional.empty(),
                        permissionsToKeep(sourceStat, in));
                out = asked.isEmpty() ? tfs.openWrite(written, mode) : tfs.openWrite(written, mode, asked);
                copied = transfer(in, out, progress, sourceStat.size().orElse(BUFFER));
                requireListedSize(source, target, sourceStat, copied);
            }
            OutputStream finished = out;
            out = null;
            finished.close();
            if (setTime && mtime.isPresent() && !timeWithContent) {
                tfs.setLastModifiedTime(written, mtime.get());
            }
            if (viaRename && replace) {
                RenameOver.rename(tfs, written, target);
            } else if (viaRename) {
                tfs.rename(written, target, false);
            }
            return copied;
        } catch (IOException e) {
            discard(out, written, viaRename, e);
            throw viaRename ? namingTheTarget(e, written, target) : e;
        } catch (RuntimeException | Error e) {
            discard(out, written, viaRename, e);
            throw e;
        } finally {
            if (viaRename) {
                Temporaries.release(written);
            }
        }
    }

    /**
     * The source's permission bits, for the target to keep where it can (a backend that keeps
     * none ignores them; a new tar or zip records them as the entry's mode): from its listing
     * where the listing carries them (SFTP, mem), else as its read reported them (a local listing
     * through NIO builds no permission set per entry; its read has the file's attributes anyway).
     */
    private static Optional<Set<java.nio.file.attribute.PosixFilePermission>> permissionsToKeep(FileStat sourceStat,
            InputStream in) {
        return sourceStat.permissions().isPresent() ? sourceStat.permissions()
                : StatReportingStream.of(in).flatMap(FileStat::permissions);
    }

    /**
     * Creates {@code target} as the copy of the directory {@code source} (its listed or stat'ed
     * {@code sourceStat}): where the source's listing has permissions, with its bits for group
     * and others, the target's umask applying, as {@code cp -r} makes it (a private directory
     * stays private); the owner always gets {@code rwx}, so the copy can be filled now and
     * updated later whatever the source's own bits. They are asked of every target, as a file's
     * are: one that keeps none ignores them, and a new archive records them as the entry's mode.
     * Without them, with the target's default.
     */
    public static void createDirectoryLike(RemotePath target, FileStat sourceStat) throws IOException {
        RemoteFileSystem tfs = target.fileSystem();
        if (sourceStat.permissions().isEmpty()) {
            tfs.createDirectory(target);
            return;
        }
        int mode = dev.remotepath.PosixModes.mode(sourceStat.permissions().get()) | 0700;
        tfs.createDirectory(target, dev.remotepath.PosixModes.permissions(mode));
    }

    /**
     * Creates the directory {@code target} and its missing parents ({@code mkdir -p}), the
     * target itself as the copy of the directory {@code source} ({@link #createDirectoryLike};
     * one stat of the source, where both sides keep permissions): a sync's missing root. A
     * directory already there is kept.
     */
    public static void createDirectoriesLike(RemotePath target, RemotePath source) throws IOException {
        RemoteFileSystem tfs = target.fileSystem();
        if (!tfs.capabilities().contains(Capability.POSIX_PERMISSIONS)
                || !source.fileSystem().capabilities().contains(Capability.POSIX_PERMISSIONS)
                || target.parent().equals(target)) {
            createDirectories(target);
            return;
        }
        createDirectories(target.parent());
        FileStat stat;
        try {
            stat = source.fileSystem().stat(source, true);
        } catch (IOException e) {
            stat = FileStat.ofType(dev.remotepath.FileType.DIRECTORY); // the sync says what is wrong with its source
        }
        try {
            createDirectoryLike(target, stat);
        } catch (FileAlreadyExistsException raced) {
            createDirectories(target); // made meanwhile: kept if it is a directory
        }
    }

    /**
     * A copy that read another number of bytes than the source's listing declared is not
     * published (rclone: "corrupted on transfer: sizes differ"): the file changed while it was
     * read, or the server's listing was wrong. Either way the next run sees the difference
     * again and says so, rather than settling on a copy nobody can vouch for.
     */
    private static void requireListedSize(RemotePath source, RemotePath target, FileStat listed, long copied)
            throws FileSystemException {
        if (listed.sizeExact() && listed.size().isPresent() && listed.size().getAsLong() != copied) {
            throw new FileSystemException(source.toString(), target.toString(), "sizes differ: the listing said "
                    + listed.size().getAsLong() + " bytes but " + copied + " were read (the file changed while it was "
                    + "copied, or the server's listing is wrong); not copied");
        }
    }

    /**
     * A plain FileSystemException about the temporary (a full disk, a server's refusal) is
     * re-issued about the target, the file the user asked for, with the temporary named in the
     * reason. Precise subclasses keep their type and message.
     */
    private static IOException namingTheTarget(IOException e, RemotePath temporary, RemotePath target) {
        if (e.getClass() != FileSystemException.class || !temporary.toString().equals(((FileSystemException) e).getFile())) {
            return e;
        }
        FileSystemException f = (FileSystemException) e;
        FileSystemException named = new FileSystemException(target.toString(), f.getOtherFile(),
                f.getReason() + " (while writing its temporary " + temporary.name() + ")");
        named.initCause(e);
        for (Throwable s : e.getSuppressed()) {
            named.addSuppressed(s);
        }
        return named;
    }

    private static void discard(OutputStream out, RemotePath written, boolean viaRename, Throwable failure) {
        try {
            if (out instanceof AbortableOutputStream abortable) {
                abortable.abort();
            } else if (out != null) {
                out.close();
            }
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
        if (viaRename) {
            try {
                written.fileSystem().deleteFile(written);
            } catch (NoSuchFileException gone) {
                // Never created, or already renamed away.
            } catch (IOException | RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
    }

    /** Copies all of {@code in} to {@code out}, reporting each chunk; returns the byte count. */
    public static long transfer(InputStream in, OutputStream out, LongConsumer progress) throws IOException {
        return transfer(in, out, progress, BUFFER);
    }

    /**
     * As {@link #transfer(InputStream, OutputStream, LongConsumer)}, with a buffer sized for
     * {@code expectedSize} bytes: copying 10,000 small files must not allocate 10,000 large buffers.
     */
    public static long transfer(InputStream in, OutputStream out, LongConsumer progress, long expectedSize)
            throws IOException {
        byte[] buf = new byte[(int) Math.clamp(expectedSize + 1, 8 * 1024, BUFFER)];
        long total = 0;
        int n;
        while ((n = in.read(buf)) >= 0) {
            if (n > 0) {
                out.write(buf, 0, n);
                total += n;
                progress.accept(n);
            }
        }
        return total;
    }

    /**
     * Whether {@code name} is one of this library's temporaries ({@code .<name>.<12 hex>.rptmp}):
     * a leftover of a copy that was killed. Tree copies, walks of copies and syncs never copy or
     * count one as a file, and a sync removes those it finds in the target directories it visits.
     */
    public static boolean isTemporary(String name) {
        int n = name.length();
        int hexStart = n - TEMPORARY_SUFFIX.length() - 12;
        if (n < 1 + 1 + 1 + 12 + TEMPORARY_SUFFIX.length() || name.charAt(0) != '.' || !name.endsWith(TEMPORARY_SUFFIX)
                || name.charAt(hexStart - 1) != '.') {
            return false;
        }
        for (int i = hexStart; i < hexStart + 12; i++) {
            char c = name.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** A fresh hidden name beside {@code target}, short enough for 255-byte name limits. */
    public static RemotePath temporarySibling(RemotePath target) {
        return target.resolveSibling(temporaryName(target.name()));
    }

    /**
     * A fresh temporary's name for {@code name} ({@code .<name>.<12 hex>.rptmp}), which
     * {@link #isTemporary} recognizes: backends' own probe files use it too, so a leftover of a
     * killed run is never synced as a file and a sync removes it from the targets it visits.
     */
    public static String temporaryName(String name) {
        if (name.getBytes(StandardCharsets.UTF_8).length > 200) {
            int cut = Math.min(name.length(), 60);
            if (Character.isHighSurrogate(name.charAt(cut - 1))) {
                cut--;
            }
            name = name.substring(0, cut);
        }
        // Uniqueness, not secrecy: CREATE_NEW refuses a clash rather than clobbering.
        long r = ThreadLocalRandom.current().nextLong() & 0xffff_ffff_ffffL;
        return "." + name + "." + HexFormat.of().toHexDigits(r).substring(4) + TEMPORARY_SUFFIX;
    }

    /** Creates {@code dir} and missing parents; an existing directory is fine, anything else there is not. */
    public static void createDirectories(RemotePath dir) throws IOException {
        RemoteFileSystem fs = dir.fileSystem();
        try {
            if (!fs.stat(dir, true).isDirectory()) {
                throw new FileAlreadyExistsException(dir.toString(), null, "exists and is not a directory");
            }
            return;
        } catch (NoSuchFileException missing) {
            // Create it below.
        }
        RemotePath parent = dir.parent();
        if (!parent.equals(dir)) {
            createDirectories(parent);
        }
        try {
            fs.createDirectory(dir);
        } catch (FileAlreadyExistsException raced) {
            if (!fs.stat(dir, true).isDirectory()) {
                throw raced;
            }
        }
    }
}
