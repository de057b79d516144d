package dev.remotepath.tree;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive delete driven by the listings' types: one stat of the start (to never follow a
 * link there), one list per directory, and the files of each directory handed to the
 * backend's batch delete. Links are removed, never followed.
 */
public final class TreeRemover {

    private TreeRemover() {
    }

    public static void deleteRecursively(RemotePath path) throws IOException {
        RemoteFileSystem fs = path.fileSystem();
        if (fs.stat(path, false).isDirectory()) {
            removeTree(path);
        } else {
            fs.deleteFile(path);
        }
    }

    private static void removeTree(RemotePath dir) throws IOException {
        RemoteFileSystem fs = dir.fileSystem();
        List<RemotePath> files = new ArrayList<>();
        for (DirEntry e : Listings.read(dir, ListDetail.TYPES)) {
            if (e.isDirectory()) {
                removeTree(e.path());
            } else {
                files.add(e.path());
            }
        }
        if (!files.isEmpty()) {
            fs.deleteFiles(files);
        }
        try {
            fs.deleteDirectory(dir);
        } catch (NoSuchFileException gone) {
            // Removed concurrently: the goal is reached.
        }
    }
}
