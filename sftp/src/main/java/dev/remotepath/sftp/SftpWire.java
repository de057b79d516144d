package dev.remotepath.sftp;

import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One SSH session with an SFTP v3 channel, as a client library provides it: the protocol's
 * requests and nothing more. {@link SftpFileSystem} holds all behaviour (error mapping,
 * reconnects, the FAILURE disambiguation, rename emulation) once, over either client, so that
 * both behave alike. A server's status answer is thrown as {@link SftpStatusException}; any
 * other {@code IOException} is a transport failure.
 */
interface SftpWire {

    /** One operation on a wire, for the layers that choose the wire (reconnecting, pooling). */
    @FunctionalInterface
    interface Operation<T> {
        T on(SftpWire wire) throws IOException;
    }

    /** File attributes as SFTP v3 carries them; absent fields are -1 (times, size) or null. */
    /** The last second SFTP version 3's unsigned 32-bit times reach (2106-02-07T06:28:15Z). */
    long MAX_V3_SECONDS = 0xffff_ffffL;

    /** The extension name of OpenSSH's no-follow SETSTAT. */
    String LSETSTAT = "lsetstat@openssh.com";
    String POSIX_RENAME = "posix-rename@openssh.com";

    record Attributes(Kind kind, long size, long mtimeSeconds, long atimeSeconds, int permissions, long uid, long gid) {
        enum Kind { FILE, DIRECTORY, SYMLINK, OTHER }

        /** Without owner and group (-1: not sent). */
        Attributes(Kind kind, long size, long mtimeSeconds, long atimeSeconds, int permissions) {
            this(kind, size, mtimeSeconds, atimeSeconds, permissions, -1, -1);
        }

        boolean hasPermissions() {
            return permissions >= 0;
        }

        /** Version 3 sends uid and gid together, as unsigned 32-bit numbers. */
        boolean hasOwners() {
            return uid >= 0 && gid >= 0;
        }
    }

    /** A READDIR name with the attributes that came with it. */
    record Entry(String name, Attributes attributes) {
    }

    /**
     * A directory's READDIR answers would never end: one named an entry the listing had named
     * already (the server started its listing over), or more than
     * {@link dev.remotepath.spi.ContinuationGuard#MAX_EMPTY_PAGES} answers in a row named nothing,
     * none of them the end of file, or the answers named more entries than
     * {@link dev.remotepath.spi.ContinuationGuard#maxEntries()}. Not a transport failure: the
     * connection is kept and the listing not asked again.
     */
    final class EndlessListing extends IOException {
        private final transient Optional<String> repeatedName;

        EndlessListing(String reason, Optional<String> repeatedName) {
            super(reason);
            this.repeatedName = repeatedName;
        }

        /** The name listed twice, if that is what ended the listing. */
        Optional<String> repeatedName() {
            return repeatedName;
        }
    }

    /**
     * A directory's names as its READDIR answers bring them, without {@code .} and {@code ..},
     * kept from reading a server forever ({@link EndlessListing}): read on, a server that starts
     * its listing over, or answers with empty batches, is asked again without end, the heap
     * filling with its names (and a traversal refuses a name listed twice anyway).
     */
    final class Listed {
        private final String directory;
        private final dev.remotepath.spi.ContinuationGuard emptyAnswers;
        private final List<Entry> entries = new java.util.ArrayList<>();
        private final java.util.Set<String> names = new java.util.HashSet<>();

        Listed(String directory) {
            this.directory = directory;
            this.emptyAnswers = new dev.remotepath.spi.ContinuationGuard(directory);
        }

        /**
         * A NAME answer arrived with {@code count} names, to be {@link #add added} next; more than
         * {@link dev.remotepath.spi.ContinuationGuard#MAX_EMPTY_PAGES} empty ones in a row, or more
         * names in all than {@link dev.remotepath.spi.ContinuationGuard#maxEntries()}, end the listing.
         */
        void answer(int count) throws EndlessListing {
            try {
                emptyAnswers.pageWithoutToken(count);
            } catch (IOException endless) {
                throw new EndlessListing(endless.getMessage(), Optional.empty());
            }
        }

        void add(String name, Attributes attributes) throws EndlessListing {
            if (name.equals(".") || name.equals("..")) {
                return;
            }
            if (!names.add(name)) {
                throw new EndlessListing(directory + ": the server listed a name twice", Optional.of(name));
            }
            entries.add(new Entry(name, attributes));
        }

        List<Entry> entries() {
            return entries;
        }
    }

    /** Which client library this is ({@code mina}, {@code sshj}). */
    String client();

    boolean alive();

    boolean hasPosixRename();

    boolean hasCheckFile();

    /**
     * Whether the server takes {@code lsetstat@openssh.com} (OpenSSH 8.0+, MINA): a SETSTAT that
     * does not follow a symbolic link at the path.
     */
    boolean hasLsetstat();

    /** Whether the server takes {@code copy-data} (OpenSSH 9.0+, MINA). */
    boolean hasCopyData();

    /**
     * Copies all of {@code source} into {@code target}, created new ({@code CREAT|EXCL}) with
     * {@code permissions} ({@link #NO_PERMISSIONS}: the server's default), on the server with
     * {@code copy-data}: the bytes never cross the connection. Only when {@link #hasCopyData()}.
     */
    void copyData(String source, String target, int permissions) throws IOException;

    /** No permissions asked of a file an OPEN creates: the server's default (0666 less its umask, for OpenSSH). */
    int NO_PERMISSIONS = -1;

    Attributes stat(String path) throws IOException;

    Attributes lstat(String path) throws IOException;

    /**
     * The directory's names and attributes, without {@code .} and {@code ..}, one READDIR after
     * another; {@link EndlessListing} if the answers would never end. The directory's handle is closed
     * after: awaited when the listing was read, not awaited when it failed (a server that did not
     * answer a READDIR in time is not waited for twice).
     */
    List<Entry> readDir(String path) throws IOException;

    /** Opens and reads from {@code offset}, pipelining reads; closing closes the handle. */
    InputStream read(String path, long offset) throws IOException;

    /** As {@link #read(String, long)}, reading (and reading ahead) no more than {@code length} bytes. */
    InputStream read(String path, long offset, long length) throws IOException;

    /**
     * Opens ({@code CREAT|EXCL}, {@code CREAT|TRUNC} or {@code CREAT|APPEND}) and writes,
     * pipelined; with {@code mtime}, close() also sets both times through the handle (FSETSTAT)
     * before the CLOSE. {@code permissions} (the low nine bits, or {@link #NO_PERMISSIONS}) go in
     * the OPEN's attributes, as {@code sftp put} sends them: the server creates the file with
     * them as {@code open(2)}'s mode, its umask applying; an existing file keeps its own.
     */
    OutputStream write(String path, WriteMode mode, Optional<Instant> mtime, int permissions) throws IOException;

    /** MKDIR with {@code permissions} in its attributes ({@link #NO_PERMISSIONS}: none), the server's umask applying. */
    void mkdir(String path, int permissions) throws IOException;

    void rmdir(String path) throws IOException;

    void remove(String path) throws IOException;

    /** SSH_FXP_RENAME: never replaces an existing target. */
    void rename(String source, String target) throws IOException;

    /** {@code posix-rename@openssh.com}: replaces atomically. Only when {@link #hasPosixRename()}. */
    void posixRename(String source, String target) throws IOException;

    /** SETSTAT of both times (v3 sets them together); follows a link at {@code path}. */
    void setTimes(String path, Instant time) throws IOException;

    /**
     * {@code lsetstat@openssh.com} of both times: a link at {@code path} gets the times itself,
     * what it points to is left alone. Only when {@link #hasLsetstat()}.
     */
    void setTimesNoFollow(String path, Instant time) throws IOException;

    /** SETSTAT of the permission bits. */
    void setPermissions(String path, int mode) throws IOException;

    /** Creates {@code link} pointing at {@code target}, in the argument order the server expects. */
    void symlink(String link, String target) throws IOException;

    String readLink(String path) throws IOException;

    /**
     * {@code statvfs@openssh.com}: the space of the file system holding {@code path}, or empty
     * when the server does not offer the extension.
     */
    java.util.Optional<dev.remotepath.spi.StoreSpace> space(String path) throws IOException;

    /**
     * {@code check-file-name} over the whole file with one algorithm ({@code md5}, {@code sha1},
     * ...); empty when the server answered with another algorithm or several hashes.
     */
    Optional<byte[]> checkFile(String path, String algorithm) throws IOException;

    /** Closes the channel and the session; failures are ignored, the wire is being thrown away. */
    void closeQuietly();

    /**
     * A statvfs answer (counts of fragments of {@code frsize} bytes) in bytes. The fields are
     * unsigned 64-bit on the wire: a server's nonsense (a negative or overflowing product) is
     * capped at {@code Long.MAX_VALUE}, as NIO caps a store larger than that.
     */
    static dev.remotepath.spi.StoreSpace space(long frsize, long blocks, long bfree, long bavail) {
        return new dev.remotepath.spi.StoreSpace(bytes(frsize, blocks), bytes(frsize, bavail), bytes(frsize, bfree));
    }

    private static long bytes(long frsize, long count) {
        if (frsize < 0 || count < 0) {
            return Long.MAX_VALUE;
        }
        long high = Math.multiplyHigh(frsize, count);
        return high != 0 || frsize * count < 0 ? Long.MAX_VALUE : frsize * count;
    }

    /** Bytes per READ or WRITE every server must take (draft-ietf-secsh-filexfer-02). */
    int SAFE_REQUEST = 32 * 1024;
    /** The largest READ or WRITE RemotePath sends, even to a server that announces more. */
    int MAX_REQUEST = 256 * 1024;

    /** Where a read of {@code length} bytes from {@code offset} stops (Long.MAX_VALUE: the end of the file). */
    static long end(long offset, long length) {
        return length >= Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + length;
    }

    /**
     * READs a download keeps in flight at most: the requests option, and no more bytes than the
     * SSH window, which is all the server can send before we read (more would only queue).
     */
    static int readsInFlight(int requests, long window, int requestSize) {
        return (int) Math.max(1, Math.min(requests, window / requestSize));
    }

    /**
     * The request size for a server's {@code limits@openssh.com} figure: 32 KiB (what every
     * server must take) up to 256 KiB. OpenSSH announces 255 KiB both ways: a 256 MiB upload in
     * such WRITEs took 0.9 s instead of 1.5 s.
     */
    static int requestSize(long limit) {
        return limit <= SAFE_REQUEST ? SAFE_REQUEST : (int) Math.min(MAX_REQUEST, limit);
    }
}
