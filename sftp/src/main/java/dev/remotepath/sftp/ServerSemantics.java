package dev.remotepath.sftp;

import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one server's SFTP answers mean where servers differ without saying so. The protocol says
 * {@code CREAT|EXCL} fails on an existing file, MKDIR fails on an existing directory, SETSTAT
 * fails on a missing path and LSTAT reports a link itself; some servers answer OK regardless
 * (rclone's {@code serve sftp} does the first three, over its VFS, and empties a file it is asked
 * to append to before it fails the write) or resolve links before an
 * LSTAT (ProFTPD's mod_sftp, for a link whose target exists). Trusting those answers would let a
 * create-only write replace a file, a mkdir "create" what was there, and {@code rm -r} of a link
 * walk into what it points to.
 *
 * <p>So the first create-only write, mkdir or time change of a file system probes the server,
 * once, in the directory it is about to act in, with fresh temporaries' names it removes: two
 * exclusive creates of one name, an append to it, a RENAME onto it, two MKDIRs of one name, a
 * SETSTAT of a missing name (about twenty requests, once). Where RENAME is known to refuse an
 * existing target, a non-replacing rename needs no LSTAT first: one request less per copied
 * file. Where an answer lied, the operation checks with an LSTAT first (not atomic, the
 * best such a server allows; docs/compatibility.md says where), and an append where appending
 * loses content is refused before the file is opened. A single-path LSTAT that
 * answers "not a link" is confirmed with READLINK (one more round trip, for that call only:
 * listings carry their own types and are not checked).
 */
final class ServerSemantics {

    private static final Logger LOG = LoggerFactory.getLogger(ServerSemantics.class);

    /** What the probe found; {@link #HONEST} until it has run. */
    record Answers(boolean exclusiveCreateRefusesExisting, boolean mkdirRefusesExisting,
            boolean setstatRefusesMissing, boolean appendKeepsContent, boolean renameRefusesExisting) {
        static final Answers HONEST = new Answers(true, true, true, true, true);

        boolean honest() {
            return equals(HONEST);
        }
    }

    private volatile Answers learned;

    /** The answers, probing in {@code directory} the first time (a probe that fails is retried next time). */
    Answers of(SftpWire wire, String directory) throws IOException {
        Answers a = learned;
        if (a != null) {
            return a;
        }
        synchronized (this) {
            if (learned == null) {
                Optional<Answers> found = probe(wire, directory);
                if (found.isEmpty()) {
                    return Answers.HONEST; // cannot write there: the operation itself will fail
                }
                learned = found.get();
                if (!learned.honest()) {
                    LOG.info("sftp server at {} answers OK where it should fail ({}): create-only writes, mkdir and "
                            + "time changes check with LSTAT first", directory, learned);
                }
            }
            return learned;
        }
    }

    /**
     * Each question is asked only as far as the server lets the probe go: a step it refuses
     * (a drop box that takes uploads but no MKDIR, say) leaves that answer at the protocol's,
     * and never fails the operation that asked. Transport failures do propagate.
     */
    private static Optional<Answers> probe(SftpWire wire, String directory) throws IOException {
        String in = directory.endsWith("/") ? directory : directory + "/";
        // Temporaries' names: a probe file left by a killed run is never synced, and is cleaned up.
        String file = in + dev.remotepath.tree.FileTransfer.temporaryName("rpprobe-f");
        String other = in + dev.remotepath.tree.FileTransfer.temporaryName("rpprobe-r");
        String dir = in + dev.remotepath.tree.FileTransfer.temporaryName("rpprobe-d");
        String missing = in + dev.remotepath.tree.FileTransfer.temporaryName("rpprobe-m");
        try {
            write(wire, file, WriteMode.CREATE_NEW);
        } catch (SftpStatusException notWritable) {
            return Optional.empty();
        }
        boolean exclusive = true;
        boolean append = true;
        boolean rename = true;
        try {
            try {
                write(wire, file, WriteMode.CREATE_NEW);
                exclusive = false;
            } catch (SftpStatusException refused) {
                // as the protocol says
            }
            try {
                write(wire, file, WriteMode.CREATE_OR_TRUNCATE);
                try {
                    write(wire, file, WriteMode.CREATE_OR_APPEND);
                    append = wire.lstat(file).size() == 2;
                } catch (SftpStatusException refused) {
                    append = wire.lstat(file).size() == 1; // refused, and the content kept: a clear failure
                }
            } catch (SftpStatusException cannotTell) {
                // the server would not let the probe look: the protocol's answer stands
            }
            try {
                write(wire, other, WriteMode.CREATE_NEW);
                wire.rename(other, file); // v3 RENAME must not replace (OpenSSH links, then unlinks)
                rename = false;
            } catch (SftpStatusException refusedOrCannotTell) {
                // as the protocol says
            }
        } finally {
            removeQuietly(wire, file);
            removeQuietly(wire, other);
        }
        boolean mkdir = true;
        try {
            wire.mkdir(dir, SftpWire.NO_PERMISSIONS);
            try {
                wire.mkdir(dir, SftpWire.NO_PERMISSIONS);
                mkdir = false;
            } catch (SftpStatusException refused) {
                // as the protocol says
            } finally {
                wire.rmdir(dir);
            }
        } catch (SftpStatusException noDirectoriesHere) {
            // a server that takes files but no directories: the protocol's answer stands
        }
        boolean setstat = true;
        try {
            wire.setTimes(missing, java.time.Instant.ofEpochSecond(0));
            setstat = false;
        } catch (SftpStatusException refused) {
            // as the protocol says
        }
        return Optional.of(new Answers(exclusive, mkdir, setstat, append, rename));
    }

    /** Removes a probe file that may be gone (renamed away) or not removable; transport errors propagate. */
    private static void removeQuietly(SftpWire wire, String path) throws IOException {
        try {
            wire.remove(path);
        } catch (SftpStatusException goneOrRefused) {
            // renamed onto the other probe file, or the server keeps it: nothing more to do
        }
    }

    private static void write(SftpWire wire, String path, WriteMode mode) throws IOException {
        try (java.io.OutputStream out = wire.write(path, mode, Optional.empty(), SftpWire.NO_PERMISSIONS)) {
            out.write('x');
        }
    }

    /**
     * LSTAT of one path, a "not a link" answer confirmed with READLINK: a server that resolves
     * links before its LSTAT is caught, and the link reported as a link (its size the length of
     * its size and times unknown).
     */
    static SftpWire.Attributes lstat(SftpWire wire, String path) throws IOException {
        SftpWire.Attributes a = wire.lstat(path);
        if (a.kind() == SftpWire.Attributes.Kind.SYMLINK) {
            return a;
        }
        String text;
        try {
            text = wire.readLink(path);
        } catch (SftpStatusException notALink) {
            return a;
        }
        // Its size would be its text's length, but this server may have rewritten the text.
        return new SftpWire.Attributes(SftpWire.Attributes.Kind.SYMLINK, -1, -1, -1, -1);
    }
}
