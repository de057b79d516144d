package dev.remotepath.tree;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive delete driven by the listings' types: one stat of the start (to never follow a
 * link there), one list per directory (or one flat listing of the whole tree where the backend
 * has one, {@link FlatIndex}), and the files of each directory handed to the backend's batch
 * delete. Links are removed, never followed.
 */
public final class TreeRemover {

    private TreeRemover() {
    }

    /**
     * What a recursive delete removed.
     *
     * @param files       non-directories deleted: files, links and special files
     * @param directories directories deleted, the start included when it was one
     */
    public record Removed(long files, long directories) {
    }

    /**
     * Deletes {@code path} and, when it is a directory (links are not followed), all it holds.
     *
     * @throws FileSystemException for the root of a file system of real directories (a disk's
     *     {@code /}, a server's): refused, as {@code rm -r /} is ({@code --preserve-root}); a
     *     bucket's or container's root (implied directories) is emptied, the bucket kept
     */
    public static Removed deleteRecursively(RemotePath path) throws IOException {
        RemoteFileSystem fs = path.fileSystem();
        requireNotRoot(path);
        if (fs.stat(path, false).isDirectory()) {
            long[] counts = new long[2];
            removeTree(path, FlatIndex.read(path, ListDetail.TYPES, FlatIndex.DEFAULT_BUDGET).orElse(null), counts);
            return new Removed(counts[0], counts[1]);
        }
        fs.deleteFile(path);
        return new Removed(1, 0);
    }

    /**
     * The whole of a machine's disk or a server's tree is never one call away: {@code /tmp/..}
     * is {@code /} once normalized, and a script's empty variable makes {@code "$DIR/"} the root.
     */
    static void requireNotRoot(RemotePath path) throws FileSystemException {
        if (path.isAbsolute() && path.equals(path.root())
                && !path.fileSystem().capabilities().contains(Capability.IMPLICIT_DIRECTORIES)) {
            throw new FileSystemException(path.toString(), null, "refusing to remove the root of the file system "
                    + "and everything in it (as rm -r / is refused); remove what it holds by name");
        }
    }

    private static void removeTree(RemotePath dir, FlatIndex index, long[] counts) throws IOException {
        RemoteFileSystem fs = dir.fileSystem();
        List<RemotePath> files = new ArrayList<>();
        java.util.Optional<List<DirEntry>> indexed = index == null ? java.util.Optional.empty() : index.take(dir);
        for (DirEntry e : indexed.isPresent() ? indexed.get() : Listings.read(dir, ListDetail.TYPES)) {
            if (e.isDirectory()) {
                removeTree(e.path(), index, counts);
            } else {
                files.add(e.path());
            }
        }
        if (!files.isEmpty()) {
            fs.deleteFiles(files);
            counts[0] += files.size();
        }
        if (dir.isAbsolute() && dir.equals(dir.root())) {
            return; // a bucket's root (requireNotRoot let no other through): emptied, the bucket stays
        }
        try {
            fs.deleteDirectory(dir);
        } catch (NoSuchFileException gone) {
            // Removed concurrently, or implied by the files just deleted (S3): the goal is reached.
        }
        counts[1]++; // it was listed, and it is gone
    }
}
