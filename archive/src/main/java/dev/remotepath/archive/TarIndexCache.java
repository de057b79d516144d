package dev.remotepath.archive;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tar indexes kept on the local disk across processes, so that the next {@code rpath ls
 * tar:https://…/src.tar.gz!/} or sync out of an unchanged archive does not read the archive
 * from its start again to find its entries. An index is found by the archive's URI and what
 * its stat says of its version (size, modification time, ETag, and on the local disk the
 * change time and file key): a replaced archive misses and is read anew. An archive whose stat
 * gives neither a modification time nor an ETag is never cached, nor is one on a file system
 * that lives in one process only ({@code mem:}).
 *
 * <p>The cache is an optimisation, never an authority: a file that is truncated, corrupt (its
 * CRC-32 is checked), of another version or for another key is ignored and replaced, and the
 * names it gives are checked by every listing as an archive's own are. A cache that cannot be
 * written (no room, no permission) only costs the next process its index pass. The folder is
 * {@code $XDG_CACHE_HOME/remotepath/archive-index} (else {@code ~/.cache/...}), made readable by
 * its owner only, and holds at most {@value #MAX_BYTES} bytes (the least recently used indexes go
 * first); the system property {@value #PROPERTY} names another folder, or {@code off}.
 */
final class TarIndexCache {

    /** The system property naming the cache's folder, or {@code off}. */
    static final String PROPERTY = "remotepath.archive.index-cache";
    static final long MAX_BYTES = 256L << 20;

    private static final Logger LOG = LoggerFactory.getLogger(TarIndexCache.class);
    private static final byte[] MAGIC = "RPTARIX1".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_STRING = 1 << 20;
    private static final long MAX_FILE = 1L << 30;

    private TarIndexCache() {
    }

    /** The cached index of {@code archive} as {@code stat} describes it, if one is kept. */
    static Optional<List<TarFormat.TarEntry>> find(RemotePath archive, FileStat stat) {
        Optional<Path> file = file(archive, stat);
        if (file.isEmpty() || !Files.isRegularFile(file.get())) {
            return Optional.empty();
        }
        try {
            byte[] bytes;
            if (Files.size(file.get()) > MAX_FILE) {
                throw new IOException("larger than " + MAX_FILE + " bytes");
            }
            bytes = Files.readAllBytes(file.get());
            List<TarFormat.TarEntry> entries = decode(bytes, key(archive, stat));
            touch(file.get());
            return Optional.of(entries);
        } catch (IOException | RuntimeException e) {
            LOG.debug("ignoring the cached tar index {} of {}: {}", file.get(), archive, e.toString());
            deleteQuietly(file.get());
            return Optional.empty();
        }
    }

    /** Keeps {@code entries} as the index of {@code archive} at {@code stat}; failing to is not an error. */
    static void keep(RemotePath archive, FileStat stat, List<TarFormat.TarEntry> entries) {
        Optional<Path> file = file(archive, stat);
        if (file.isEmpty()) {
            return;
        }
        Path dir = file.get().getParent();
        Path tmp = null;
        try {
            createPrivately(dir);
            byte[] bytes = encode(key(archive, stat), entries);
            tmp = Files.createTempFile(dir, "index-", ".tmp");
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, file.get(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file.get(), StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
            trim(dir);
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not keep the tar index of {} in {}: {}", archive, dir, e.toString());
        } finally {
            if (tmp != null) {
                deleteQuietly(tmp);
            }
        }
    }

    /** The cache's folder, or empty where it is turned off. */
    static Optional<Path> directory() {
        String configured = System.getProperty(PROPERTY);
        if (configured != null) {
            return configured.isBlank() || configured.equals("off") ? Optional.empty() : Optional.of(Path.of(configured));
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".cache");
        return Optional.of(base.resolve("remotepath").resolve("archive-index"));
    }

    /** Where the index of {@code archive} at {@code stat} is kept; empty where it is not. */
    static Optional<Path> file(RemotePath archive, FileStat stat) {
        if (stat.lastModified().isEmpty() && stat.etag().isEmpty()) {
            return Optional.empty(); // nothing tells one version of the archive from the next
        }
        if (archive.toUri().getScheme().equals("mem")) {
            return Optional.empty(); // its archives die with the process
        }
        return directory().map(d -> d.resolve(sha256(key(archive, stat)) + ".idx"));
    }

    /** Everything that tells this archive and this version of it from any other. */
    static String key(RemotePath archive, FileStat stat) {
        return String.join("\n", archive.toUri().toString(), String.valueOf(stat.size().orElse(-1)),
                stat.lastModified().map(Instant::toString).orElse(""), stat.etag().orElse(""),
                stat.changeTime().map(Instant::toString).orElse(""), stat.fileKey().orElse(""));
    }

    // ------------------------------------------------------------------ the file's format

    static byte[] encode(String key, List<TarFormat.TarEntry> entries) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(64 + entries.size() * 96);
        DataOutputStream out = new DataOutputStream(buf);
        out.write(MAGIC);
        string(out, key);
        out.writeInt(entries.size());
        for (TarFormat.TarEntry e : entries) {
            string(out, e.name());
            out.writeUTF(e.type().name());
            out.writeLong(e.size());
            out.writeBoolean(e.modified().isPresent());
            if (e.modified().isPresent()) {
                out.writeLong(e.modified().get().getEpochSecond());
                out.writeInt(e.modified().get().getNano());
            }
            out.writeLong(e.precision().toNanos());
            out.writeInt(e.unixMode());
            string(out, e.linkTarget());
            out.writeLong(e.key());
            out.writeLong(e.dataOffset());
            out.writeBoolean(e.sparse());
            out.writeBoolean(e.compressed());
        }
        CRC32 crc = new CRC32();
        crc.update(buf.toByteArray());
        out.writeLong(crc.getValue());
        out.flush();
        return buf.toByteArray();
    }

    static List<TarFormat.TarEntry> decode(byte[] bytes, String expectedKey) throws IOException {
        if (bytes.length < MAGIC.length + 8) {
            throw new IOException("truncated");
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 8);
        DataInputStream tail = new DataInputStream(new ByteArrayInputStream(bytes, bytes.length - 8, 8));
        if (tail.readLong() != crc.getValue()) {
            throw new IOException("CRC-32 mismatch");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - 8));
        byte[] magic = in.readNBytes(MAGIC.length);
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw new IOException("not an index of this version");
        }
        if (!string(in).equals(expectedKey)) {
            throw new IOException("the index of another archive");
        }
        int count = in.readInt();
        if (count < 0 || count > bytes.length / 40) { // an entry takes at least 40 bytes
            throw new IOException("an entry count of " + count);
        }
        List<TarFormat.TarEntry> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = string(in);
            FileType type = FileType.valueOf(in.readUTF()); // an unknown name is an IllegalArgumentException: a miss
            long size = in.readLong();
            Optional<Instant> modified = in.readBoolean()
                    ? Optional.of(Instant.ofEpochSecond(in.readLong(), in.readInt()))
                    : Optional.empty();
            Duration precision = Duration.ofNanos(in.readLong());
            int mode = in.readInt();
            String link = string(in);
            long key = in.readLong();
            long dataOffset = in.readLong();
            boolean sparse = in.readBoolean();
            boolean compressed = in.readBoolean();
            if (size < 0 || precision.isNegative() || (dataOffset < 0 && dataOffset != -1)) {
                throw new IOException("a malformed entry " + i);
            }
            out.add(new TarFormat.TarEntry(name, type, size, modified, precision, mode, link, key, dataOffset,
                    sparse, compressed));
        }
        if (in.available() != 0) {
            throw new IOException("bytes after the last entry");
        }
        return out;
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        out.writeInt(s.length());
        out.writeChars(s); // every char as it is: names may hold lone surrogates (undecodable bytes)
    }

    private static String string(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_STRING || n * 2L > in.available()) {
            throw new IOException("a string of " + n + " chars");
        }
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = in.readChar();
        }
        return new String(c);
    }

    // ------------------------------------------------------------------ the folder

    private static void createPrivately(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Files.createDirectories(dir.getParent());
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (UnsupportedOperationException e) {
            Files.createDirectory(dir);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // made by another process meanwhile
        }
    }

    private static void touch(Path file) {
        try {
            Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
        } catch (IOException e) {
            // only the eviction order suffers
        }
    }

    /** Deletes the least recently used indexes while the folder holds more than {@link #MAX_BYTES}. */
    private static void trim(Path dir) throws IOException {
        record Kept(Path file, long size, FileTime used) {
        }
        List<Kept> kept = new ArrayList<>();
        long total = 0;
        try (var files = Files.newDirectoryStream(dir, "*.idx")) {
            for (Path f : files) {
                try {
                    var a = Files.readAttributes(f, java.nio.file.attribute.BasicFileAttributes.class);
                    kept.add(new Kept(f, a.size(), a.lastModifiedTime()));
                    total += a.size();
                } catch (IOException gone) {
                    // deleted by another process meanwhile
                }
            }
        }
        kept.sort(Comparator.comparing(Kept::used));
        for (Kept k : kept) {
            if (total <= MAX_BYTES) {
                break;
            }
            deleteQuietly(k.file());
            total -= k.size();
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a cache file left behind is ignored or replaced next time
        }
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
