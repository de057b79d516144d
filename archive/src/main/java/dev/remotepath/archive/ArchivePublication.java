package dev.remotepath.archive;

import dev.remotepath.RemotePath;
import dev.remotepath.spi.AbortableOutputStream;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.WriteMode;
import dev.remotepath.tree.FileTransfer;
import dev.remotepath.tree.Temporaries;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.util.Set;

/**
 * The stream a new archive is written to, published whole or not at all, the way the archive's
 * backend publishes a copy: where it can rename, into a temporary sibling renamed into place
 * at the end (refusing to replace a file that appeared meanwhile); where it cannot (an object
 * store), straight to the archive's name through a stream that publishes on close and discards
 * everything on abort.
 */
final class ArchivePublication {

    private final RemotePath archive;
    private final RemotePath temporary;
    private final OutputStream out;

    private ArchivePublication(RemotePath archive, RemotePath temporary, OutputStream out) {
        this.archive = archive;
        this.temporary = temporary;
        this.out = out;
    }

    static ArchivePublication open(RemotePath archive) throws IOException {
        RemoteFileSystem fs = archive.fileSystem();
        Set<Capability> caps = fs.capabilities();
        if (caps.contains(Capability.ATOMIC_RENAME) || caps.contains(Capability.RENAME)) {
            RemotePath temporary = FileTransfer.temporarySibling(archive);
            Temporaries.register(temporary);
            try {
                return new ArchivePublication(archive, temporary, fs.openWrite(temporary, WriteMode.CREATE_NEW));
            } catch (IOException | RuntimeException e) {
                Temporaries.release(temporary);
                throw e;
            }
        }
        return new ArchivePublication(archive, null, fs.openWrite(archive, WriteMode.CREATE_NEW));
    }

    /** Where the archive's bytes go. */
    OutputStream stream() {
        return out;
    }

    /** Ends the stream and puts the archive in place; on failure nothing is left under either name. */
    void publish() throws IOException {
        try {
            out.close();
            if (temporary != null) {
                archive.fileSystem().rename(temporary, archive, false);
            }
        } catch (IOException | RuntimeException e) {
            if (temporary != null) {
                deleteTemporary(e);
            }
            throw e;
        } finally {
            if (temporary != null) {
                Temporaries.release(temporary);
            }
        }
    }

    /** Discards everything written. */
    void abort() throws IOException {
        try {
            if (out instanceof AbortableOutputStream abortable) {
                abortable.abort();
            } else {
                out.close();
                if (temporary == null) {
                    // Neither renamable nor abortable: what was written directly is removed again.
                    archive.fileSystem().deleteFile(archive);
                }
            }
        } finally {
            if (temporary != null) {
                IOException none = new IOException();
                deleteTemporary(none);
                Temporaries.release(temporary);
                if (none.getSuppressed().length > 0) {
                    throw (IOException) none.getSuppressed()[0];
                }
            }
        }
    }

    private void deleteTemporary(Throwable failure) {
        try {
            temporary.fileSystem().deleteFile(temporary);
        } catch (NoSuchFileException gone) {
            // renamed already, or never made
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
