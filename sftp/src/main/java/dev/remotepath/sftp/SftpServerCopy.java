package dev.remotepath.sftp;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.tree.FileTransfer;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.Optional;

/**
 * A copy that leaves the bytes on the server: {@code copy-data} into a temporary sibling
 * created with the source's permissions (the server's umask applying), the source's mtime set
 * on it, then renamed into place ({@code posix-rename} when replacing), so
 * the target appears complete or not at all. Where the server cannot (no {@code copy-data}, or
 * a replacing copy without {@code posix-rename}) the caller streams instead.
 */
final class SftpServerCopy {

    private final SftpConnection connection;

    SftpServerCopy(SftpConnection connection) {
        this.connection = connection;
    }

    /**
     * Copies on the server and returns true, or returns false having done nothing where the
     * server cannot. {@code sourceTime} is asked only where the source's stat has no time.
     */
    boolean copy(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting,
            SourceTime sourceTime) throws IOException {
        SftpWire wire = connection.live();
        if (!wire.hasCopyData() || replaceExisting && !wire.hasPosixRename()) {
            return false;
        }
        if (!replaceExisting && connection.lstatQuietly(target) != null) {
            throw new FileAlreadyExistsException(target.toString());
        }
        RemotePath temp = FileTransfer.temporarySibling(target);
        try {
            wire.copyData(source.pathString(), temp.pathString(),
                    sourceStat.permissions().map(dev.remotepath.PosixModes::mode).orElse(SftpWire.NO_PERMISSIONS));
        } catch (IOException e) {
            removeQuietly(wire, temp, e); // copy-data may have created it before failing
            if (!(e instanceof SftpStatusException status)) {
                throw connection.transport(e, "copy-data", source);
            }
            if (connection.lstatQuietly(source) == null) {
                throw new NoSuchFileException(source.toString());
            }
            if (connection.lstatQuietly(target.parent()) == null) {
                throw new NoSuchFileException(target.toString(), null, "the parent directory does not exist");
            }
            throw SftpErrors.mapped(status, source, target);
        }
        try {
            Optional<Instant> mtime = sourceStat.lastModified().isPresent() ? sourceStat.lastModified()
                    : sourceTime.of(source);
            if (mtime.isPresent()) {
                SftpStats.requireStorableTime(target, mtime.get());
                wire.setTimes(temp.pathString(), mtime.get());
            }
            if (replaceExisting) {
                wire.posixRename(temp.pathString(), target.pathString());
            } else {
                wire.rename(temp.pathString(), target.pathString());
            }
            return true;
        } catch (IOException e) {
            removeQuietly(wire, temp, e);
            if (!(e instanceof SftpStatusException status)) {
                throw e instanceof FileSystemException ? e : connection.transport(e, "copy-data", source);
            }
            if (!replaceExisting && connection.lstatQuietly(target) != null) {
                throw new FileAlreadyExistsException(target.toString());
            }
            throw SftpErrors.mapped(status, source, target);
        }
    }

    /** The source's modification time, read where its stat came without one. */
    @FunctionalInterface
    interface SourceTime {
        Optional<Instant> of(RemotePath source) throws IOException;
    }

    /** Removes a temporary that may or may not exist; a failure to do so rides on {@code failure}. */
    private static void removeQuietly(SftpWire wire, RemotePath temp, IOException failure) {
        try {
            wire.remove(temp.pathString());
        } catch (SftpStatusException gone) {
            if (gone.status() != SftpStatusException.NO_SUCH_FILE) {
                failure.addSuppressed(gone);
            }
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
