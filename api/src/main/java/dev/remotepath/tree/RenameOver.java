package dev.remotepath.tree;

import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.util.Set;

/**
 * A rename that replaces an existing target on every backend that can rename at all: one atomic
 * rename where {@link Capability#ATOMIC_RENAME} is declared; with only {@link Capability#RENAME},
 * the old target is renamed aside, the source renamed into place, and the old copy deleted. If
 * the second rename fails, the old target is put back, so a failure never loses it.
 */
final class RenameOver {

    private RenameOver() {
    }

    /** True when the backend can rename files at all, replacing or not. */
    static boolean canRename(RemoteFileSystem fs) {
        Set<Capability> caps = fs.capabilities();
        return caps.contains(Capability.ATOMIC_RENAME) || caps.contains(Capability.RENAME);
    }

    static void rename(RemoteFileSystem fs, RemotePath source, RemotePath target) throws IOException {
        if (fs.capabilities().contains(Capability.ATOMIC_RENAME)) {
            fs.rename(source, target, true);
            return;
        }
        try {
            fs.rename(source, target, false);
            return;
        } catch (FileAlreadyExistsException e) {
            // the common case of a replacing rename; handled below
        }
        if (fs.stat(target, false).type() == FileType.DIRECTORY) {
            fs.deleteDirectory(target); // as NIO: only an empty directory is replaced
            try {
                fs.rename(source, target, false);
            } catch (IOException | RuntimeException e) {
                try {
                    fs.createDirectory(target);
                } catch (IOException | RuntimeException restore) {
                    e.addSuppressed(restore);
                }
                throw e;
            }
            return;
        }
        RemotePath aside = FileTransfer.temporarySibling(target);
        fs.rename(target, aside, false);
        try {
            fs.rename(source, target, false);
        } catch (IOException | RuntimeException e) {
            try {
                fs.rename(aside, target, false);
            } catch (IOException | RuntimeException restore) {
                e.addSuppressed(new FileSystemException(aside.toString(), target.toString(),
                        "the replaced file is kept here: restoring it failed: " + restore.getMessage()));
            }
            throw e;
        }
        try {
            fs.deleteFile(aside);
        } catch (IOException e) {
            throw new FileSystemException(target.toString(), aside.toString(),
                    "replaced, but the old copy set aside could not be deleted: " + e.getMessage());
        }
    }
}
