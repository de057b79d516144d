package dev.remotepath.tree;

import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Moves a file or tree: a rename where source and target share a file system, otherwise (or
 * when the backend signals with {@link AtomicMoveNotSupportedException} that this pair cannot
 * be renamed) a copy followed by a recursive delete of the source. The source is deleted only
 * after the whole copy succeeded.
 */
public final class Mover {

    private Mover() {
    }

    public static void move(RemotePath source, RemotePath target, CopyOption... options) throws IOException {
        Set<CopyOption> opts = Set.of(options);
        boolean replace = opts.contains(StandardCopyOption.REPLACE_EXISTING);
        boolean atomic = opts.contains(StandardCopyOption.ATOMIC_MOVE);
        if (source.sameFileSystemAs(target)) {
            if (target.startsWith(source) && !target.equals(source)) {
                throw new FileSystemException(source.toString(), target.toString(), "target lies inside the source tree");
            }
            if (source.equals(target)) {
                source.stat(LinkOption.NOFOLLOW_LINKS); // NIO: moving a file onto itself is a no-op, if it exists
                return;
            }
            try {
                RemoteFileSystem fs = source.fileSystem();
                if (atomic && !fs.capabilities().contains(Capability.ATOMIC_RENAME)) {
                    renameWithoutReplacing(fs, source, target); // a rename to a free name is still atomic
                } else if (replace && !atomic && RenameOver.canRename(fs)) {
                    RenameOver.rename(fs, source, target);
                } else {
                    fs.rename(source, target, replace || atomic);
                }
                return;
            } catch (AtomicMoveNotSupportedException e) {
                if (atomic) {
                    throw e;
                }
            }
        } else if (atomic) {
            throw new AtomicMoveNotSupportedException(source.toString(), target.toString(),
                    "source and target are on different file systems");
        }
        TreeRemover.requireNotRoot(source); // before the copy: a root would be copied whole, then refused
        List<CopyOption> copyOptions = new ArrayList<>(List.of(LinkOption.NOFOLLOW_LINKS));
        if (replace) {
            copyOptions.add(StandardCopyOption.REPLACE_EXISTING);
        }
        TreeCopier.copy(source, target, copyOptions.toArray(CopyOption[]::new));
        TreeRemover.deleteRecursively(source);
    }

    private static void renameWithoutReplacing(RemoteFileSystem fs, RemotePath source, RemotePath target)
            throws IOException {
        try {
            fs.rename(source, target, false);
        } catch (FileAlreadyExistsException e) {
            throw new AtomicMoveNotSupportedException(source.toString(), target.toString(),
                    "this backend cannot replace an existing target atomically");
        }
    }
}
