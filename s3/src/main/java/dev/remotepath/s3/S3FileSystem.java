package dev.remotepath.s3;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.NameBytes;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * One bucket of an S3 or S3-compatible store, with one SDK client closed with it.
 *
 * <p>Keys map to paths one to one ({@code s3://bucket/a/b} is key {@code a/b}); directories are
 * prefixes ending in {@code /}, present when any key lies below them or when a zero-byte
 * {@code dir/} marker exists (which {@link #createDirectory} writes). Listings are
 * {@code ListObjectsV2} pages with delimiter {@code /}, fetched lazily; their entries carry size,
 * upload time ({@link FileStat#storedAt()}), ETag and, for single-part objects, the MD5 the ETag
 * is, so that walking, removing and quick-checking a tree make no request per object. The
 * file's own modification time is user metadata {@code x-amz-meta-mtime} (decimal seconds, as
 * rclone writes it), written with every upload and read by {@link #stat}.
 *
 * <p>S3 cannot rename: {@link #rename} refuses with {@link AtomicMoveNotSupportedException} so
 * that moves become server-side copies followed by deletes. Uploads are published atomically by
 * {@link S3UploadStream#close()}; nothing is visible before.
 */
public final class S3FileSystem implements RemoteFileSystem {

    /** The user-metadata key rclone and RemotePath keep the modification time under. */
    static final String MTIME_KEY = "mtime";
    static final String OCTET_STREAM = "application/octet-stream";
    private static final String DIRECTORY_TYPE = "application/x-directory";
    private static final int MAX_KEY_BYTES = 1024;
    private static final Set<ChecksumAlgorithm> NATIVE = EnumSet.of(ChecksumAlgorithm.MD5, ChecksumAlgorithm.SHA1,
            ChecksumAlgorithm.SHA256, ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32C, ChecksumAlgorithm.CRC64NVME);

    private final RemoteFileSystemProvider provider;
    private final String bucket;
    private final S3Options options;
    private final S3Client client;
    private final Runnable onClose;
    private final String uriPrefix;
    /** What this file system has learnt of the bucket's directories (dev.remotepath.spi.KnownDirectories). */
    final dev.remotepath.spi.KnownDirectories directories = new dev.remotepath.spi.KnownDirectories();
    private final dev.remotepath.spi.OpenState state = new dev.remotepath.spi.OpenState();
    private final S3ServerCopy serverCopy;
    final S3ObjectStats stats;
    /** What the streams handed out hold: counts, part buffers, uploads under way. */
    final S3Streams streams;

    S3FileSystem(RemoteFileSystemProvider provider, String bucket, S3Options options, Runnable onClose) {
        this.provider = provider;
        this.bucket = bucket;
        this.options = options;
        this.onClose = onClose;
        this.uriPrefix = "s3://" + bucket;
        this.client = S3Clients.newClient(options);
        this.streams = new S3Streams(client, bucket, options);
        this.serverCopy = new S3ServerCopy(this);
        this.stats = new S3ObjectStats(options.etagIsMd5());
    }

    // ------------------------------------------------------------------ identity

    @Override
    public RemoteFileSystemProvider provider() {
        return provider;
    }

    @Override
    public String uriPrefix() {
        return uriPrefix;
    }

    /** The bucket this file system is. */
    public String bucket() {
        return bucket;
    }

    /** The options it was opened with. */
    public S3Options options() {
        return options;
    }

    @Override
    public Set<Capability> capabilities() {
        EnumSet<Capability> c = EnumSet.of(Capability.WRITE, Capability.SET_LAST_MODIFIED_TIME, Capability.MTIME_ON_WRITE,
                Capability.SERVER_SIDE_COPY, Capability.BATCH_DELETE, Capability.NATIVE_CHECKSUM,
                Capability.IMPLICIT_DIRECTORIES);
        if (options.flatListings()) {
            c.add(Capability.FLAT_LISTING);
        }
        return c;
    }

    S3Client client() {
        return client;
    }

    // ------------------------------------------------------------------ keys

    /** The object key of a path: its string without the leading slash ({@code ""} for the root). */
    String key(RemotePath path) throws IOException {
        String p = path.pathString();
        String key = p.substring(1);
        if (NameBytes.hasEscapes(key)) {
            throw new FileSystemException(path.toString(), null, "S3 keys are UTF-8; this name is not valid UTF-8");
        }
        if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES - 1) {
            throw new FileSystemException(path.toString(), null, "key longer than S3's 1024 bytes");
        }
        return key;
    }

    /** The prefix of a directory's children: {@code a/b/}, or {@code ""} for the root. */
    String prefix(RemotePath directory) throws IOException {
        String key = key(directory);
        return key.isEmpty() ? "" : key + "/";
    }

    private static boolean isRoot(RemotePath path) {
        return path.pathString().equals("/");
    }

    IOException translate(SdkException e, RemotePath path) {
        return S3Errors.translate(e, path.toString());
    }

    // ------------------------------------------------------------------ metadata

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        requireOpen();
        if (isRoot(path)) {
            try {
                client.headBucket(b -> b.bucket(bucket));
            } catch (S3Exception e) {
                if (e.statusCode() == 404) {
                    throw new NoSuchFileException(path.toString(), null, "no such bucket");
                }
                throw translate(e, path);
            } catch (SdkException e) {
                throw translate(e, path);
            }
            return FileStat.ofType(FileType.DIRECTORY);
        }
        Optional<HeadObjectResponse> head = head(path, false);
        if (head.isPresent()) {
            return stats.fileStat(head.get());
        }
        Optional<FileStat> directory = directoryStat(path);
        if (directory.isPresent()) {
            return directory.get();
        }
        throw new NoSuchFileException(path.toString());
    }

    /** HEAD of a path's key; empty on 404. */
    Optional<HeadObjectResponse> head(RemotePath path, boolean withChecksums) throws IOException {
        return headKey(key(path), path, withChecksums);
    }

    /** HEAD of {@code key} (errors named after {@code path}); empty on 404. */
    private Optional<HeadObjectResponse> headKey(String key, RemotePath path, boolean withChecksums) throws IOException {
        try {
            return Optional.of(client.headObject(h -> {
                h.bucket(bucket).key(key);
                if (withChecksums) {
                    h.checksumMode(ChecksumMode.ENABLED);
                }
            }));
        } catch (S3Exception e) {
            if (S3Errors.isNotFound(e)) {
                return Optional.empty();
            }
            throw translate(e, path);
        } catch (SdkException e) {
            throw translate(e, path);
        }
    }

    /** The directory at {@code path} (a marker or any key below it), or empty. */
    private Optional<FileStat> directoryStat(RemotePath path) throws IOException {
        String prefix = prefix(path);
        ListObjectsV2Response page = listPage(path, prefix, null, 1, false);
        if (page.contents().isEmpty()) {
            // Nothing below it; a marker alone can still make it a directory, on stores whose
            // listings leave a prefix's own marker out (s3proxy's file system provider).
            return markerStat(path, prefix);
        }
        directories.remember(prefix);
        var first = page.contents().getFirst();
        FileStat.Builder b = FileStat.builder(FileType.DIRECTORY);
        if (first.key().equals(prefix) && first.lastModified() != null) {
            b.storedAt(S3ObjectStats.storedAt(first.lastModified()));
        }
        return Optional.of(b.build());
    }

    /** The directory whose marker object {@code prefix} exists (HEAD answers), or empty. */
    private Optional<FileStat> markerStat(RemotePath path, String prefix) throws IOException {
        Optional<HeadObjectResponse> marker = headKey(prefix, path, false);
        if (marker.isEmpty()) {
            return Optional.empty();
        }
        directories.remember(prefix);
        FileStat.Builder b = FileStat.builder(FileType.DIRECTORY);
        if (marker.get().lastModified() != null) {
            b.storedAt(S3ObjectStats.storedAt(marker.get().lastModified()));
        }
        return Optional.of(b.build());
    }

    boolean directoryExists(RemotePath path) throws IOException {
        if (isRoot(path)) {
            return true;
        }
        String prefix = prefix(path);
        if (directories.isDirectory(prefix)) {
            return true;
        }
        return directoryStat(path).isPresent();
    }

    /**
     * Whether writing a file at {@code path} would shadow a directory of that name. Known
     * without a request when the parent was listed to the end or created here (a directory
     * made since by another client is then missed, and both are listed later, as S3 allows).
     */
    private boolean isDirectoryForWrite(RemotePath path) throws IOException {
        if (directories.isDirectory(prefix(path))) {
            return true;
        }
        if (directories.childrenKnown(prefix(path.parent()))) {
            return false;
        }
        return directoryStat(path).isPresent();
    }

    // ------------------------------------------------------------------ listing

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        requireOpen();
        String prefix = prefix(directory);
        ListObjectsV2Response first = listPage(directory, prefix, null, 1000, true);
        boolean empty = first.contents().isEmpty() && first.commonPrefixes().isEmpty();
        if (empty && !isRoot(directory)) {
            // An empty listing: an empty directory kept by its marker alone (a store may list
            // a prefix without its own marker), a file, or nothing.
            if (markerStat(directory, prefix).isPresent()) {
                return DirectoryListing.of(List.of());
            }
            if (head(directory, false).isPresent()) {
                throw new java.nio.file.NotDirectoryException(directory.toString());
            }
            throw new NoSuchFileException(directory.toString());
        }
        directories.remember(prefix);
        return new S3Listing(this, directory, prefix, first);
    }

    @Override
    public DirectoryListing listTree(RemotePath directory, ListDetail detail) throws IOException {
        if (!options.flatListings()) {
            throw new UnsupportedOperationException("flat listings are off for this store (S3Options.flatListings)");
        }
        requireOpen();
        String prefix = prefix(directory);
        ListObjectsV2Response first = listPage(directory, prefix, null, 1000, false);
        if (first.contents().isEmpty() && !isRoot(directory)) {
            return list(directory, detail); // nothing below: an empty directory, a file or nothing, as list() says
        }
        directories.remember(prefix);
        return new S3TreeListing(this, directory, prefix, first);
    }

    /** One page of keys under {@code prefix}, grouped by {@code /} when {@code delimited}. */
    ListObjectsV2Response listPage(RemotePath directory, String prefix, String continuation, int maxKeys,
            boolean delimited) throws IOException {
        try {
            return client.listObjectsV2(l -> {
                l.bucket(bucket).prefix(prefix).maxKeys(maxKeys).continuationToken(continuation);
                if (delimited) {
                    l.delimiter("/");
                }
            });
        } catch (SdkException e) {
            throw translate(e, directory);
        }
    }

    // ------------------------------------------------------------------ reading

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        return openRead(file, offset, -1);
    }

    /** A bounded {@code Range} ({@code bytes=offset-last}): the store sends the window, no more. */
    @Override
    public InputStream openRead(RemotePath file, long offset, long length) throws IOException {
        requireOpen();
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (length == 0) {
            return InputStream.nullInputStream();
        }
        // -1: to the end (also for a length that would run past Long.MAX_VALUE)
        long last = length < 0 || length > Long.MAX_VALUE - offset ? -1 : offset + length - 1;
        String key = key(file);
        if (isRoot(file)) {
            throw new dev.remotepath.IsDirectoryException(file.toString());
        }
        try {
            ResponseInputStream<GetObjectResponse> in = get(key, offset, last, null);
            return new S3ReadStream(this, file, key, offset, last, in);
        } catch (S3Exception e) {
            if (e.statusCode() == 416) {
                return InputStream.nullInputStream(); // offset at or past the end
            }
            if (S3Errors.isNotFound(e) && !"NoSuchBucket".equals(errorCode(e)) && directoryExists(file)) {
                throw new dev.remotepath.IsDirectoryException(file.toString());
            }
            throw translate(e, file);
        } catch (SdkException e) {
            throw translate(e, file);
        }
    }

    /** @param last the range's last byte, -1 for the end of the object */
    ResponseInputStream<GetObjectResponse> get(String key, long offset, long last, String ifMatch) {
        return client.getObject(g -> {
            g.bucket(bucket).key(key);
            if (offset > 0 || last >= 0) {
                g.range("bytes=" + offset + "-" + (last >= 0 ? String.valueOf(last) : ""));
            }
            if (ifMatch != null) {
                g.ifMatch(ifMatch);
            }
        });
    }

    static String errorCode(S3Exception e) {
        return e.awsErrorDetails() == null ? "" : String.valueOf(e.awsErrorDetails().errorCode());
    }

    // ------------------------------------------------------------------ writing

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return openWrite(file, mode, Instant.now());
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, Instant lastModified) throws IOException {
        requireOpen();
        String key = key(file);
        if (isRoot(file)) {
            throw new dev.remotepath.IsDirectoryException(file.toString());
        }
        requireNoFileAbove(file);
        if (isDirectoryForWrite(file)) {
            throw new dev.remotepath.IsDirectoryException(file.toString());
        }
        boolean createOnly = mode == WriteMode.CREATE_NEW;
        // CREATE_NEW publishes with If-None-Match: *, so of two writers only one can win; a HEAD
        // first only where the store may ignore the header (S3Options.conditionalWrites).
        Optional<HeadObjectResponse> existing = mode == WriteMode.CREATE_OR_TRUNCATE
                || (createOnly && options.conditionalWrites()) ? Optional.empty() : head(file, false);
        if (createOnly && existing.isPresent()) {
            throw new FileAlreadyExistsException(file.toString());
        }
        S3UploadStream out = new S3UploadStream(this, file, key, Map.of(MTIME_KEY, S3ObjectStats.formatMtime(lastModified)),
                createOnly);
        if (mode == WriteMode.CREATE_OR_APPEND && existing.isPresent()) {
            // S3 objects are immutable: appending rewrites the object with the old content first.
            try (InputStream old = openRead(file, 0)) {
                old.transferTo(out);
            } catch (IOException | RuntimeException e) {
                out.abort();
                throw e;
            }
        }
        return out;
    }

    /**
     * A write needs no parent directory ({@link Capability#IMPLICIT_DIRECTORIES}: a prefix exists
     * by what is under it), but a file on the way would make one name both a file and a
     * directory, which a listing then refuses. Each ancestor not known to be a directory is
     * HEADed; a write publishes them all as known ({@link #published}), so a run pays this once
     * per new prefix.
     */
    private void requireNoFileAbove(RemotePath path) throws IOException {
        for (RemotePath p = path.parent(); !isRoot(p) && !directories.isDirectory(prefix(p)); p = p.parent()) {
            if (head(p, false).isPresent()) {
                // Below a file nothing exists, as stat says: the type every backend gives.
                throw new java.nio.file.NoSuchFileException(path.toString(), null, "a parent is not a directory: " + p
                        + " is a file");
            }
        }
    }

    /** {@code file} was published: every prefix above it is a directory now. */
    void published(RemotePath file) throws IOException {
        directories.published(key(file));
    }

    private void requireParentDirectory(RemotePath path) throws IOException {
        RemotePath parent = path.parent();
        if (!directoryExists(parent)) {
            throw new NoSuchFileException(path.toString(), null, "parent directory does not exist");
        }
    }

    /** Publishes a whole object in one PUT; {@code createOnly}: only if no object has the key. */
    void putObject(RemotePath file, String key, byte[] content, int length, Map<String, String> metadata,
            String contentType, boolean createOnly) throws IOException {
        putObject(file, key, () -> new java.io.ByteArrayInputStream(content, 0, length), length, metadata, contentType,
                createOnly);
    }

    /** Publishes a whole object of {@code length} bytes read from {@code content} (read again on a retry). */
    void putObject(RemotePath file, String key, software.amazon.awssdk.http.ContentStreamProvider content, long length,
            Map<String, String> metadata, String contentType, boolean createOnly) throws IOException {
        try {
            client.putObject(p -> {
                p.bucket(bucket).key(key).contentType(contentType).contentLength(length).metadata(metadata);
                if (createOnly) {
                    p.ifNoneMatch("*");
                }
            }, RequestBody.fromContentProvider(content, length, contentType));
        } catch (S3Exception e) {
            throw createOnly ? S3Errors.createOnlyRefused(e, file.toString()) : translate(e, file);
        } catch (SdkException e) {
            throw translate(e, file);
        }
    }

    // ------------------------------------------------------------------ directories

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        requireOpen();
        if (isRoot(directory)) {
            S3Buckets.create(this, directory);
            return;
        }
        requireParentDirectory(directory);
        if (head(directory, false).isPresent() || directoryStat(directory).isPresent()) {
            throw new FileAlreadyExistsException(directory.toString());
        }
        String prefix = prefix(directory);
        putObject(directory, prefix, new byte[0], 0, Map.of(MTIME_KEY, S3ObjectStats.formatMtime(Instant.now())), DIRECTORY_TYPE, false);
        directories.remember(prefix);
        directories.listedToTheEnd(prefix); // just made, and no key was below it
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        requireOpen();
        String key = key(file);
        try {
            client.deleteObject(d -> d.bucket(bucket).key(key));
        } catch (SdkException e) {
            throw translate(e, file);
        }
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        requireOpen();
        if (isRoot(directory)) {
            throw new FileSystemException(directory.toString(), null, "the bucket's root cannot be deleted");
        }
        String prefix = prefix(directory);
        ListObjectsV2Response page = listPage(directory, prefix, null, 2, false);
        for (var o : page.contents()) {
            if (!o.key().equals(prefix)) {
                DirectoryNotEmptyException e = new DirectoryNotEmptyException(directory.toString());
                e.initCause(new IOException("holds " + o.key()));
                throw e;
            }
        }
        directories.forget(prefix);
        // The marker, also when the listing did not show it: some stores (s3proxy's file system
        // provider) leave a prefix's own marker out of its listing. Deleting a key that is not
        // there succeeds, so a directory that had no marker costs one idempotent request.
        deleteFiles(List.of(directory), List.of(prefix));
    }

    @Override
    public void deleteFiles(Collection<RemotePath> files) throws IOException {
        requireOpen();
        List<String> keys = new ArrayList<>(files.size());
        for (RemotePath f : files) {
            keys.add(key(f));
        }
        deleteFiles(List.copyOf(files), keys);
    }

    /** DeleteObjects in batches (S3BatchDelete); every refused key is reported, the first thrown. */
    private void deleteFiles(List<RemotePath> paths, List<String> keys) throws IOException {
        S3BatchDelete.delete(this, paths, keys);
    }

    // ------------------------------------------------------------------ rename, copy, mtime

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        requireOpen();
        throw new AtomicMoveNotSupportedException(source.toString(), target.toString(),
                "S3 has no rename; objects are moved by copying and deleting");
    }

    @Override
    public boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        requireOpen();
        String sourceKey = key(source);
        String targetKey = key(target);
        requireNoFileAbove(target);
        if (isDirectoryForWrite(target)) {
            throw new dev.remotepath.IsDirectoryException(target.toString());
        }
        if (!replaceExisting && !options.conditionalCopies() && head(target, false).isPresent()) {
            throw new FileAlreadyExistsException(target.toString());
        }
        long size;
        if (sourceStat.size().isPresent() && sourceStat.sizeExact()) {
            size = sourceStat.size().getAsLong();
        } else {
            size = head(source, false).orElseThrow(() -> new NoSuchFileException(source.toString())).contentLength();
        }
        // COPY keeps all of the source's metadata, its stored mtime among them.
        serverCopy.copy(source, sourceKey, target, targetKey, size, Optional.empty(), Optional.empty(), null,
                !replaceExisting);
        published(target);
        return true;
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        requireOpen();
        String key = key(path);
        if (isRoot(path)) {
            throw new FileSystemException(path.toString(), null, "the bucket's root has no modification time");
        }
        Optional<HeadObjectResponse> head = head(path, false);
        if (head.isEmpty()) {
            if (!directoryExists(path)) {
                throw new NoSuchFileException(path.toString());
            }
            // A directory: its marker carries the time (made explicit if it was implicit).
            putObject(path, prefix(path), new byte[0], 0, Map.of(MTIME_KEY, S3ObjectStats.formatMtime(time)), DIRECTORY_TYPE, false);
            return;
        }
        serverCopy.restamp(path, key, head.get(), time);
    }

    // ------------------------------------------------------------------ checksums

    @Override
    public Set<ChecksumAlgorithm> nativeChecksums() {
        return NATIVE;
    }

    /**
     * The checksum S3 stored with the object: the ETag for MD5 (single-part, not KMS-encrypted),
     * else the {@code x-amz-checksum-*} value, when it is a whole-object (not composite) one.
     */
    @Override
    public Optional<Checksum> nativeChecksum(RemotePath file, ChecksumAlgorithm algorithm) throws IOException {
        requireOpen();
        HeadObjectResponse h = head(file, true).orElseThrow(() -> new NoSuchFileException(file.toString()));
        return stats.nativeChecksum(h, algorithm);
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public boolean isOpen() {
        return state.isOpen();
    }

    @Override
    public void close() {
        if (!state.close()) {
            return; // another thread closed it (or is closing it)
        }
        // Multipart uploads still under way are aborted while the client can still say so.
        streams.abortAll();
        onClose.run();
        client.close();
    }

    /** Streams open now; none once callers have closed what they opened (the tests' leak check). */
    int openStreams() {
        return streams.openStreams();
    }

    void requireOpen() {
        state.requireOpen();
    }

    @Override
    public String toString() {
        return "S3FileSystem[" + uriPrefix + ", " + options.endpoint().map(URI::toString).orElse("AWS") + "]";
    }
}
