package dev.remotepath.azure;

import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobListDetails;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.DeleteSnapshotsOptionType;
import com.azure.storage.blob.models.ListBlobsOptions;
import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.IsDirectoryException;
import dev.remotepath.NameBytes;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.KnownDirectories;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.OpenState;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One container of an Azure Blob Storage account, with the SDK's clients.
 *
 * <p>Blob names map to paths one to one ({@code az://container/a/b} is blob {@code a/b});
 * directories are name prefixes ending in {@code /}, present when a blob lies below them or a
 * marker blob marks them: a zero-byte {@code dir/} (which {@link #createDirectory} writes, with
 * {@code hdi_isfolder=true} as rclone does) or a zero-byte {@code dir} with
 * {@code hdi_isfolder=true} (hierarchical-namespace accounts, Storage Explorer). Listings are
 * List Blobs pages with metadata, so each blob's mtime comes with its name and walking,
 * removing and quick-checking a tree make no request per blob. The modification time is the
 * metadata {@code mtime} (RFC 3339, as rclone writes it), stored with each upload and set in
 * place by {@link #setLastModifiedTime}.
 *
 * <p>Blob storage cannot rename: {@link #rename} refuses with
 * {@link AtomicMoveNotSupportedException}, so moves become server-side copies and deletes.
 * Uploads are published atomically by committing their block list ({@link AzureUploadStream}).
 */
public final class AzureFileSystem implements RemoteFileSystem {

    static final String OCTET_STREAM = "application/octet-stream";
    private static final int MAX_NAME_CHARS = 1024;
    private static final Set<ChecksumAlgorithm> NATIVE = EnumSet.of(ChecksumAlgorithm.MD5);

    private final RemoteFileSystemProvider provider;
    private final String container;
    private final AzureOptions options;
    private final Runnable onClose;
    private final String uriPrefix;
    private final OpenState state = new OpenState();
    private final AtomicInteger openStreams = new AtomicInteger();
    /** Every request this file system sent, by kind (AzureRequests). */
    final AzureRequests requests = new AzureRequests();
    final BlobServiceClient service;
    final BlobContainerClient client;
    final ExecutorService blockUploads = Executors.newVirtualThreadPerTaskExecutor();
    /** What this file system has learnt of the container's directories. */
    final KnownDirectories directories = new KnownDirectories();
    private final AzureBatchDelete batchDelete;
    private final AzureServerCopy serverCopy;

    AzureFileSystem(RemoteFileSystemProvider provider, String container, AzureOptions options, Runnable onClose) {
        this.provider = provider;
        this.container = container;
        this.options = options;
        this.onClose = onClose;
        this.uriPrefix = "az://" + container;
        this.service = AzureClients.service(options, requests);
        this.client = AzureClients.container(service, container);
        this.batchDelete = new AzureBatchDelete(this);
        this.serverCopy = new AzureServerCopy(this);
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

    /** The container this file system is. */
    public String container() {
        return container;
    }

    /** The options it was opened with. */
    public AzureOptions options() {
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

    // ------------------------------------------------------------------ names

    /**
     * The blob name of a path: its string without the leading slash ({@code ""} for the root).
     * Names Azure would not keep as given are refused rather than silently renamed: a segment
     * ending in {@code .} (the service drops trailing dots) and a backslash (taken for {@code /}).
     */
    String name(RemotePath path) throws IOException {
        String name = path.pathString().substring(1);
        if (NameBytes.hasEscapes(name)) {
            throw new FileSystemException(path.toString(), null, "Azure blob names are UTF-8; this name is not valid UTF-8");
        }
        if (name.length() > MAX_NAME_CHARS - 1) {
            throw new FileSystemException(path.toString(), null, "name longer than Azure's 1,024 characters");
        }
        if (name.indexOf('\\') >= 0) {
            throw new FileSystemException(path.toString(), null,
                    "Azure takes a backslash in a blob name for '/'; this name would not be kept as given");
        }
        if (name.endsWith(".") || name.contains("./")) {
            throw new FileSystemException(path.toString(), null,
                    "Azure drops the dots that end a name segment; this name would not be kept as given");
        }
        return name;
    }

    /** The prefix of a directory's children: {@code a/b/}, or {@code ""} for the root. */
    String prefix(RemotePath directory) throws IOException {
        String name = name(directory);
        return name.isEmpty() ? "" : name + "/";
    }

    static boolean isRoot(RemotePath path) {
        return path.pathString().equals("/");
    }

    BlobClient blob(String name) {
        return client.getBlobClient(name);
    }

    // ------------------------------------------------------------------ metadata

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        requireOpen();
        if (isRoot(path)) {
            return AzureContainers.stat(client, path);
        }
        String name = name(path);
        Optional<BlobProperties> head = head(name, path);
        if (head.isPresent()) {
            BlobProperties p = head.get();
            if (AzureBlobStats.isMarker(name, p.getBlobSize(), p.getMetadata())) {
                directories.remember(name + "/");
                return AzureBlobStats.directoryStat(p.getMetadata(), p.getLastModified());
            }
            return fileStat(p);
        }
        return directoryStat(path).orElseThrow(() -> new NoSuchFileException(path.toString()));
    }

    static FileStat fileStat(BlobProperties p) {
        return AzureBlobStats.fileStat(p.getBlobSize(), p.getMetadata(), p.getLastModified(), p.getETag(),
                p.getContentMd5());
    }

    /** Get Blob Properties of {@code name} (errors named after {@code path}); empty on 404. */
    Optional<BlobProperties> head(String name, RemotePath path) throws IOException {
        if (name.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(blob(name).getPropertiesWithResponse(null, null, Context.NONE).getValue());
        } catch (RuntimeException e) {
            if (AzureErrors.isNotFound(e)) {
                return Optional.empty();
            }
            throw AzureErrors.translate(e, path.toString());
        }
    }

    /** The directory at {@code path}, shown by any blob below it, or empty. */
    private Optional<FileStat> directoryStat(RemotePath path) throws IOException {
        String prefix = prefix(path);
        List<BlobItem> first = pages(path, prefix, false, 1).next();
        if (first == null || first.isEmpty()) {
            return Optional.empty();
        }
        directories.remember(prefix);
        BlobItem item = first.getFirst();
        if (item.getName().equals(prefix) && item.getProperties() != null) {
            return Optional.of(AzureBlobStats.directoryStat(item.getMetadata(), item.getProperties().getLastModified()));
        }
        return Optional.of(FileStat.ofType(FileType.DIRECTORY));
    }

    boolean directoryExists(RemotePath path) throws IOException {
        if (isRoot(path) || directories.isDirectory(prefix(path))) {
            return true;
        }
        return directoryStat(path).isPresent() || isFolderBlob(path);
    }

    /** Whether {@code path} is a zero-byte folder blob (hdi_isfolder): an empty directory with nothing below. */
    private boolean isFolderBlob(RemotePath path) throws IOException {
        Optional<BlobProperties> head = head(name(path), path);
        return head.isPresent() && AzureBlobStats.isMarker(name(path), head.get().getBlobSize(), head.get().getMetadata());
    }

    /**
     * Whether writing a file at {@code path} would shadow a directory of that name, or replace an
     * empty one's folder blob; known without a request when the parent was listed to the end or
     * made here.
     */
    private boolean isDirectoryForWrite(RemotePath path) throws IOException {
        if (directories.isDirectory(prefix(path))) {
            return true;
        }
        if (directories.childrenKnown(prefix(path.parent()))) {
            return false;
        }
        return directoryStat(path).isPresent() || isFolderBlob(path);
    }

    /** No file may lie on the way to a write: each ancestor not known to be a directory is asked about once. */
    private void requireNoFileAbove(RemotePath path) throws IOException {
        for (RemotePath p = path.parent(); !isRoot(p) && !directories.isDirectory(prefix(p)); p = p.parent()) {
            Optional<BlobProperties> head = head(name(p), p);
            if (head.isPresent() && !AzureBlobStats.isMarker(name(p), head.get().getBlobSize(), head.get().getMetadata())) {
                throw new NoSuchFileException(path.toString(), null, "a parent is not a directory: " + p + " is a file");
            }
        }
    }

    /** {@code file} was published: every prefix above it is a directory now. */
    void published(RemotePath file) throws IOException {
        directories.published(name(file));
    }

    // ------------------------------------------------------------------ listing

    /** The pages of a listing of {@code prefix}, by directory ({@code delimited}) or flat. */
    AzurePages pages(RemotePath directory, String prefix, boolean delimited, int pageSize) {
        ListBlobsOptions o = new ListBlobsOptions().setPrefix(prefix).setMaxResultsPerPage(pageSize)
                .setDetails(new BlobListDetails().setRetrieveMetadata(true));
        return new AzurePages(this, directory, () -> (delimited ? client.listBlobsByHierarchy("/", o, null)
                : client.listBlobs(o, null)).iterableByPage().iterator());
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        requireOpen();
        String prefix = prefix(directory);
        AzurePages pages = pages(directory, prefix, true, 5000);
        List<BlobItem> first = pages.next();
        if ((first == null || first.isEmpty()) && !isRoot(directory)) {
            // Nothing below it (not even its own dir/ marker): a zero-byte folder blob, a file, or nothing.
            Optional<BlobProperties> head = head(name(directory), directory);
            if (head.isPresent() && AzureBlobStats.isMarker(name(directory), head.get().getBlobSize(),
                    head.get().getMetadata())) {
                return DirectoryListing.of(List.of());
            }
            if (head.isPresent()) {
                throw new NotDirectoryException(directory.toString());
            }
            throw new NoSuchFileException(directory.toString());
        }
        directories.remember(prefix);
        return new AzureListing(this, directory, prefix, pages, first == null ? List.of() : first);
    }

    @Override
    public DirectoryListing listTree(RemotePath directory, ListDetail detail) throws IOException {
        if (!options.flatListings()) {
            throw new UnsupportedOperationException("flat listings are off for this store (AzureOptions.flatListings)");
        }
        requireOpen();
        String prefix = prefix(directory);
        AzurePages pages = pages(directory, prefix, false, 5000);
        List<BlobItem> first = pages.next();
        if ((first == null || first.isEmpty()) && !isRoot(directory)) {
            return list(directory, detail); // an empty folder blob, a file or nothing, as list() says
        }
        directories.remember(prefix);
        return new AzureTreeListing(this, directory, prefix, pages, first == null ? List.of() : first);
    }

    // ------------------------------------------------------------------ reading

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        return openRead(file, offset, -1);
    }

    /** A bounded range: the service sends the window, no more, in chunks of at most one block. */
    @Override
    public InputStream openRead(RemotePath file, long offset, long length) throws IOException {
        requireOpen();
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (isRoot(file)) {
            throw new IsDirectoryException(file.toString());
        }
        if (length == 0) {
            return InputStream.nullInputStream();
        }
        return AzureReadStream.open(this, file, name(file), offset, length);
    }

    // ------------------------------------------------------------------ writing

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return openWrite(file, mode, Instant.now());
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, Instant lastModified) throws IOException {
        requireOpen();
        if (isRoot(file)) {
            throw new IsDirectoryException(file.toString());
        }
        String name = name(file);
        requireNoFileAbove(file);
        if (isDirectoryForWrite(file)) {
            throw new IsDirectoryException(file.toString());
        }
        Optional<BlobProperties> existing = mode == WriteMode.CREATE_OR_APPEND ? head(name, file) : Optional.empty();
        if (existing.isPresent() && AzureBlobStats.isMarker(name, existing.get().getBlobSize(),
                existing.get().getMetadata())) {
            throw new IsDirectoryException(file.toString());
        }
        AzureUploadStream out = new AzureUploadStream(this, file, blob(name).getBlockBlobClient(),
                Map.of(AzureBlobStats.MTIME_KEY, AzureBlobStats.formatMtime(lastModified)), mode == WriteMode.CREATE_NEW);
        if (existing.isPresent()) {
            // Blobs are rewritten whole: appending writes the old content first.
            try (InputStream old = openRead(file, 0)) {
                old.transferTo(out);
            } catch (IOException | RuntimeException e) {
                out.abort();
                throw e;
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ directories

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        requireOpen();
        if (isRoot(directory)) {
            AzureContainers.create(client, directory);
            return;
        }
        if (!directoryExists(directory.parent())) {
            throw new NoSuchFileException(directory.toString(), null, "parent directory does not exist");
        }
        String name = name(directory);
        if (head(name, directory).isPresent() || directoryStat(directory).isPresent()) {
            throw new FileAlreadyExistsException(directory.toString());
        }
        putMarker(directory, Instant.now());
        directories.remember(name + "/");
        directories.listedToTheEnd(name + "/"); // just made, and nothing was below it
    }

    /** Writes the zero-byte {@code dir/} marker with rclone's folder flag and {@code time} as its mtime. */
    private void putMarker(RemotePath directory, Instant time) throws IOException {
        try (OutputStream out = new AzureUploadStream(this, directory, blob(name(directory) + "/").getBlockBlobClient(),
                Map.of(AzureBlobStats.FOLDER_KEY, "true", AzureBlobStats.MTIME_KEY, AzureBlobStats.formatMtime(time)),
                false)) {
            // nothing to write: the marker is empty
        }
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        requireOpen();
        String name = name(file);
        if (isRoot(file)) {
            throw new IsDirectoryException(file.toString());
        }
        try {
            blob(name).deleteWithResponse(DeleteSnapshotsOptionType.INCLUDE, null, null, Context.NONE);
        } catch (RuntimeException e) {
            throw AzureErrors.translate(e, file.toString());
        }
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        requireOpen();
        if (isRoot(directory)) {
            throw new FileSystemException(directory.toString(), null, "the container's root cannot be deleted");
        }
        String name = name(directory);
        String prefix = name + "/";
        List<BlobItem> below = pages(directory, prefix, false, 2).next();
        for (BlobItem item : below == null ? List.<BlobItem>of() : below) {
            if (!item.getName().equals(prefix)) {
                DirectoryNotEmptyException e = new DirectoryNotEmptyException(directory.toString());
                e.initCause(new IOException("holds " + item.getName()));
                throw e;
            }
        }
        directories.forget(prefix);
        boolean markerDeleted = deleteIfPresent(prefix, directory);
        Optional<BlobProperties> folderBlob = head(name, directory);
        if (folderBlob.isPresent() && AzureBlobStats.isMarker(name, folderBlob.get().getBlobSize(),
                folderBlob.get().getMetadata())) {
            deleteIfPresent(name, directory);
        } else if (!markerDeleted && (below == null || below.isEmpty())) {
            throw new NoSuchFileException(directory.toString());
        }
    }

    private boolean deleteIfPresent(String name, RemotePath path) throws IOException {
        try {
            blob(name).deleteWithResponse(DeleteSnapshotsOptionType.INCLUDE, null, null, Context.NONE);
            return true;
        } catch (RuntimeException e) {
            if (AzureErrors.isNotFound(e)) {
                return false;
            }
            throw AzureErrors.translate(e, path.toString());
        }
    }

    @Override
    public void deleteFiles(Collection<RemotePath> files) throws IOException {
        requireOpen();
        batchDelete.delete(List.copyOf(files));
    }

    // ------------------------------------------------------------------ rename, copy, mtime

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        requireOpen();
        throw new AtomicMoveNotSupportedException(source.toString(), target.toString(),
                "Azure Blob has no rename; blobs are moved by copying and deleting");
    }

    @Override
    public boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        requireOpen();
        String sourceName = name(source);
        String targetName = name(target);
        if (isRoot(target)) {
            throw new IsDirectoryException(target.toString());
        }
        requireNoFileAbove(target);
        if (isDirectoryForWrite(target)) {
            throw new IsDirectoryException(target.toString());
        }
        serverCopy.copy(source, sourceName, target, targetName, sourceStat.etag(), !replaceExisting);
        published(target);
        return true;
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        requireOpen();
        if (isRoot(path)) {
            throw new FileSystemException(path.toString(), null, "the container's root has no modification time");
        }
        String name = name(path);
        Optional<BlobProperties> head = head(name, path);
        if (head.isEmpty()) {
            if (!directoryExists(path)) {
                throw new NoSuchFileException(path.toString());
            }
            head = head(name + "/", path);
            if (head.isEmpty()) {
                putMarker(path, time); // an implicit directory gets a marker to carry its time
                return;
            }
            name = name + "/";
        }
        Map<String, String> metadata = new HashMap<>(head.get().getMetadata());
        metadata.keySet().removeIf(k -> k.equalsIgnoreCase(AzureBlobStats.MTIME_KEY));
        metadata.put(AzureBlobStats.MTIME_KEY, AzureBlobStats.formatMtime(time));
        try {
            // In place (Set Blob Metadata), guarded by the ETag so that no other writer's metadata is lost.
            blob(name).setMetadataWithResponse(metadata, new BlobRequestConditions().setIfMatch(head.get().getETag()),
                    null, Context.NONE);
        } catch (RuntimeException e) {
            throw AzureErrors.translate(e, path.toString());
        }
    }

    // ------------------------------------------------------------------ checksums

    @Override
    public Set<ChecksumAlgorithm> nativeChecksums() {
        return NATIVE;
    }

    /** The blob's Content-MD5, where it has one (set by every upload of this backend and of rclone). */
    @Override
    public Optional<Checksum> nativeChecksum(RemotePath file, ChecksumAlgorithm algorithm) throws IOException {
        requireOpen();
        if (algorithm != ChecksumAlgorithm.MD5) {
            return Optional.empty();
        }
        BlobProperties p = head(name(file), file).orElseThrow(() -> new NoSuchFileException(file.toString()));
        String md5 = fileStat(p).checksums().get(ChecksumAlgorithm.MD5);
        return md5 == null ? Optional.empty() : Optional.of(new Checksum(algorithm, md5, Checksum.Origin.METADATA));
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public boolean isOpen() {
        return state.isOpen();
    }

    @Override
    public void close() {
        if (!state.close()) {
            return;
        }
        onClose.run();
        blockUploads.shutdownNow();
    }

    void streamOpened() {
        openStreams.incrementAndGet();
    }

    void streamEnded() {
        openStreams.decrementAndGet();
    }

    /** Streams open now; none once callers have closed what they opened (the tests' leak check). */
    int openStreams() {
        return openStreams.get();
    }

    void requireOpen() {
        state.requireOpen();
    }

    @Override
    public String toString() {
        return "AzureFileSystem[" + uriPrefix + ", " + service.getAccountUrl() + "]";
    }
}
