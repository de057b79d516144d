package dev.remotepath.ftp;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.IsDirectoryException;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.OpenState;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.net.ftp.FTPReply;

/**
 * One FTP server and user as a file system (RFC 959, RFC 3659): {@code stat} is an {@code MLST}
 * (else {@code SIZE} and {@code MDTM}, or {@code CWD} for a directory), {@code list} one {@code
 * MLSD} (else {@code LIST -a}) whose answer carries every entry's type, size and time (no command
 * per entry), reads are {@code RETR} from a {@code REST} offset, writes {@code STOR} (the api
 * writes a temporary sibling and renames it into place with {@code RNFR}/{@code RNTO}),
 * directories {@code MKD} and {@code RMD}, modification times {@code MFMT} where the server has it.
 *
 * <p>What must hold is asked before it is done, never inferred from a reply: a write never
 * replaces a directory, {@code CREATE_NEW} and a non-replacing rename never replace a file (a
 * Unix server's {@code RNTO} would), and a listing is accepted only if its transfer ended with a
 * positive reply: a listing cut short would make a sync delete what it left out.
 */
public final class FtpFileSystem implements RemoteFileSystem {

    private static final DateTimeFormatter MFMT = DateTimeFormatter.ofPattern("uuuuMMddHHmmss").withZone(ZoneOffset.UTC);

    private final RemoteFileSystemProvider provider;
    private final FtpConnection.Endpoint at;
    private final FtpOptions options;
    private final FtpPool pool;
    private final Runnable onClose;
    private final OpenState state = new OpenState();
    private final AtomicInteger openStreams = new AtomicInteger();
    private final boolean setsTimes;
    private final FtpListings listings;
    /** Set once the server refused a directory's time: it keeps its own (MINA FtpServer). */
    private volatile boolean directoryTimesRefused;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FtpFileSystem.class);

    FtpFileSystem(RemoteFileSystemProvider provider, FtpConnection.Endpoint at, FtpOptions options, Runnable onClose)
            throws IOException {
        this.provider = provider;
        this.at = at;
        this.options = options;
        this.onClose = onClose;
        FtpConnection first = FtpConnection.open(at, options);
        this.setsTimes = first.mfmt;
        this.listings = new FtpListings(options);
        this.pool = new FtpPool(first, options.connections(), options.keepAlive(), () -> FtpConnection.open(at, options));
    }

    @Override
    public RemoteFileSystemProvider provider() {
        return provider;
    }

    @Override
    public String uriPrefix() {
        boolean defaultPort = at.port() == 21 || (at.tls() && options.implicitTls() && at.port() == 990);
        String h = at.host().contains(":") ? "[" + at.host() + "]" : at.host();
        String user = at.user().equals("anonymous") ? ""
                : dev.remotepath.UriPaths.encodePath(at.user()).replace("@", "%40").replace("/", "%2F").replace(":", "%3A") + "@";
        return at.scheme() + "://" + user + h + (defaultPort ? "" : ":" + at.port());
    }

    /**
     * Writes and renames ({@code RNTO}, which the api never asks to replace: a replacement sets
     * the old file aside first); modification times where {@code FEAT} lists {@code MFMT}.
     */
    @Override
    public Set<Capability> capabilities() {
        EnumSet<Capability> caps = EnumSet.of(Capability.WRITE, Capability.RENAME);
        if (setsTimes) {
            caps.add(Capability.SET_LAST_MODIFIED_TIME);
        }
        return caps;
    }

    @Override
    public boolean isOpen() {
        return state.isOpen();
    }

    @Override
    public void close() throws IOException {
        if (!state.close()) {
            return;
        }
        onClose.run();
        pool.close();
    }

    @Override
    public String toString() {
        return "FtpFileSystem[" + uriPrefix() + "]";
    }

    /** Read and write streams open now (the contract suite's leak check). */
    public int openStreams() {
        return openStreams.get();
    }

    /** Control connections open now, idle or in use. */
    public int openConnections() {
        return pool.open();
    }

    // ------------------------------------------------------------------ one command at a time

    /** Something done on one leased connection. */
    @FunctionalInterface
    interface Op<T> {
        T run(FtpConnection c) throws IOException;
    }

    /**
     * Runs {@code op} on a connection of the pool. A reply the op mapped to an exception leaves the
     * connection usable; anything else (a timeout, a reset, a malformed reply) drops it, and is
     * reported as a {@link FileSystemException} naming the path and the command.
     */
    private <T> T call(String command, RemotePath path, Op<T> op) throws IOException {
        state.requireOpen();
        FtpConnection c = pool.lease();
        boolean healthy = false;
        try {
            T result = op.run(c);
            healthy = true;
            return result;
        } catch (FileSystemException e) {
            healthy = c.client.isConnected();
            throw e;
        } catch (IOException e) {
            throw FtpErrors.transport(command, path, e);
        } finally {
            pool.release(c, healthy);
        }
    }

    /** The path as FTP commands carry it: a line break would end the command and start another. */
    static String wire(FtpConnection c, RemotePath p) throws IOException {
        String s = p.pathString();
        if (s.indexOf('\r') >= 0 || s.indexOf('\n') >= 0) {
            throw new FileSystemException(p.toString(), null, "FTP cannot name a file whose name holds a line break");
        }
        if (!c.keepsEdgeSpaces && p.name() != null && !p.name().equals(p.name().strip())) {
            throw new FileSystemException(p.toString(), null, "this server would store another name for a name "
                    + "that begins or ends with a space (it trims or replaces the space)");
        }
        if (!encodable(s, c.client.getControlEncoding())) {
            // The command would carry '?' in its place (the encoder's replacement) and act on
            // another file: a name that is not UTF-8 (kept as byte escapes), or not in the charset.
            throw new FileSystemException(p.toString(), null, "FTP cannot name this file as it is: its name is "
                    + "not " + c.client.getControlEncoding() + " (the charset of this connection's names), "
                    + "and would be sent as another name");
        }
        if (c.minaMlsd && s.chars().anyMatch(ch -> ch == '\\' || ch == '?' || ch == '*' || ch == '[')) {
            // it would act on another name: it splits at '\\' and expands wildcards
            throw new FileSystemException(p.toString(), null, "MINA FtpServer cannot name this file as it is "
                    + "('\\', '?', '*' or '[')");
        }
        return s;
    }

    /** Whether {@code s} goes into {@code charset} as it is (ASCII always does, without an encoder). */
    private static boolean encodable(String s, String charset) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return java.nio.charset.Charset.forName(charset).newEncoder().canEncode(s);
            }
        }
        return true;
    }

    private static IOException refused(FtpConnection c, String command, RemotePath path) {
        return FtpErrors.of(command, c.client.getReplyCode(), FtpConnection.reply(c.client), path);
    }

    // ------------------------------------------------------------------ stat

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        return call("MLST", path, c -> find(c, path)).orElseThrow(() -> new NoSuchFileException(path.toString()));
    }

    /** What is at {@code path}; empty where the server says nothing is. */
    Optional<FileStat> find(FtpConnection c, RemotePath path) throws IOException {
        String w = wire(c, path);
        if (c.mlst) {
            int code = c.client.sendCommand("MLST", w);
            if (code == 250) {
                String[] lines = c.client.getReplyStrings();
                // The entry is the line between "250-" and "250 ": RFC 3659 indents it by a space,
                // MINA FtpServer does not.
                for (int i = 1; i < lines.length - 1; i++) {
                    String line = lines[i];
                    if (!line.isBlank()) {
                        try {
                            return Optional.of(FtpEntries.mlsx(line.startsWith(" ") ? line.substring(1) : line).stat());
                        } catch (FtpEntries.MalformedException e) {
                            throw new FileSystemException(path.toString(), null, "MLST: " + e.getMessage());
                        }
                    }
                }
                throw new FileSystemException(path.toString(), null, "MLST answered without an entry");
            }
            if (code == 550 || code == 450 || code == 501) {
                return Optional.empty();
            }
            throw refused(c, "MLST", path);
        }
        if (path.pathString().equals("/")) {
            return Optional.of(FileStat.ofType(FileType.DIRECTORY));
        }
        if (c.size && c.client.sendCommand("SIZE", w) == 213) {
            long size = parseReplyNumber(c, path);
            FileStat.Builder b = FileStat.builder(FileType.FILE).size(size);
            if (c.mdtm && c.client.sendCommand("MDTM", w) == 213) {
                String value = c.client.getReplyString().substring(4).strip();
                try {
                    b.lastModified(FtpEntries.time(value, value), java.time.Duration.ofSeconds(1));
                } catch (FtpEntries.MalformedException e) {
                    throw new FileSystemException(path.toString(), null, "MDTM: " + e.getMessage());
                }
            }
            return Optional.of(b.build());
        }
        if (FTPReply.isPositiveCompletion(c.client.sendCommand("CWD", w))) {
            c.cwd = w;
            return Optional.of(FileStat.ofType(FileType.DIRECTORY));
        }
        return Optional.empty();
    }

    private static long parseReplyNumber(FtpConnection c, RemotePath path) throws IOException {
        String value = c.client.getReplyString().substring(4).strip();
        try {
            long n = Long.parseLong(value);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new FileSystemException(path.toString(), null, "SIZE answered " + FtpEntries.shown(value));
    }

    // ------------------------------------------------------------------ list

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        return DirectoryListing.of(call("MLSD", directory, c -> listings.list(this, c, directory)));
    }

    // ------------------------------------------------------------------ read

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        return openRead(file, offset, Long.MAX_VALUE);
    }

    @Override
    public InputStream openRead(RemotePath file, long offset, long length) throws IOException {
        return openStream("RETR", file, c -> {
            FileStat st = find(c, file).orElseThrow(() -> new NoSuchFileException(file.toString()));
            if (st.isDirectory()) {
                throw new IsDirectoryException(file.toString());
            }
            long size = st.size().orElse(-1);
            if (size >= 0 && offset >= size) {
                streamOpened();
                pool.release(c, true);
                return FtpReadStream.empty(this);
            }
            if (offset > 0 && !c.rest) {
                throw new FileSystemException(file.toString(), null, "the server cannot start a download "
                        + "from an offset (FEAT lists no REST STREAM)");
            }
            c.client.setRestartOffset(offset);
            InputStream in = c.openData("RETR", wire(c, file));
            if (in == null) {
                throw refused(c, "RETR", file);
            }
            streamOpened();
            return new FtpReadStream(this, pool, c, in, file, st, length, size < 0 ? -1 : size - offset);
        });
    }

    /** Opens a stream on a leased connection; from then on the stream owns it (or has released it). */
    private interface StreamOpening<S> {
        S open(FtpConnection c) throws IOException;
    }

    /** Leases a connection for {@code opening}, and takes it back (dropped if broken) where opening fails. */
    private <S> S openStream(String command, RemotePath file, StreamOpening<S> opening) throws IOException {
        state.requireOpen();
        FtpConnection c = pool.lease();
        try {
            return opening.open(c);
        } catch (FileSystemException e) {
            pool.release(c, c.client.isConnected());
            throw e;
        } catch (IOException | RuntimeException e) {
            pool.release(c, false);
            if (e instanceof IOException io) {
                throw FtpErrors.transport(command, file, io);
            }
            throw (RuntimeException) e;
        }
    }

    // ------------------------------------------------------------------ write

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        state.requireOpen();
        if (file.pathString().equals("/")) {
            throw new IsDirectoryException(file.toString());
        }
        return openStream("STOR", file, c -> {
            Optional<FileStat> existing = find(c, file);
            if (existing.isPresent() && existing.get().isDirectory()) {
                throw new IsDirectoryException(file.toString());
            }
            if (existing.isPresent() && mode == WriteMode.CREATE_NEW) {
                throw new FileAlreadyExistsException(file.toString());
            }
            String w = wire(c, file);
            boolean append = existing.isPresent() && mode == WriteMode.CREATE_OR_APPEND;
            OutputStream out = append ? c.client.appendFileStream(w) : c.client.storeFileStream(w);
            if (out == null) {
                throw parentProblem(c, file, append ? "APPE" : "STOR");
            }
            streamOpened();
            return new FtpWriteStream(this, pool, c, out, file, append ? "APPE" : "STOR");
        });
    }

    /** After a refusal: a missing parent, or a file where the parent should be, or the server's reason. */
    private IOException parentProblem(FtpConnection c, RemotePath path, String command) throws IOException {
        IOException reason = refused(c, command, path);
        RemotePath parent = path.parent();
        Optional<FileStat> p = parent == null ? Optional.empty() : find(c, parent);
        if (p.isEmpty()) {
            return new NoSuchFileException(path.toString(), null, "parent directory does not exist");
        }
        if (!p.get().isDirectory()) {
            return new NoSuchFileException(path.toString(), null, "a file, not a directory, is above it");
        }
        return reason;
    }

    /**
     * Why an upload the server accepted failed at its end (MINA FtpServer opens the data
     * connection before it opens the file): a missing parent, a file above it, or the reply.
     */
    IOException uploadFailure(RemotePath file, IOException reply) {
        try {
            return call("STOR", file, c -> {
                RemotePath parent = file.parent();
                Optional<FileStat> p = parent == null ? Optional.empty() : find(c, parent);
                if (p.isEmpty()) {
                    return new NoSuchFileException(file.toString(), null, "parent directory does not exist");
                }
                if (!p.get().isDirectory()) {
                    return new NoSuchFileException(file.toString(), null, "a file, not a directory, is above it");
                }
                return reply;
            });
        } catch (IOException | RuntimeException e) {
            reply.addSuppressed(e);
            return reply;
        }
    }

    /** Deletes what a failed upload left, on a connection of its own; failures are added to {@code cause}. */
    void deleteLeftover(RemotePath file, Exception cause) {
        try {
            call("DELE", file, c -> {
                c.client.sendCommand("DELE", wire(c, file));
                return null;
            });
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        if (!setsTimes) {
            throw RemoteFileSystem.unsupported(path, "setting a modification time (FEAT lists no MFMT)");
        }
        if (time.isBefore(Instant.parse("0001-01-01T00:00:00Z")) || time.isAfter(Instant.parse("9999-12-31T23:59:59Z"))) {
            throw new FileSystemException(path.toString(), null, "MFMT cannot carry the time " + time);
        }
        call("MFMT", path, c -> {
            String w = wire(c, path);
            if (FTPReply.isPositiveCompletion(c.client.sendCommand("MFMT", MFMT.format(time) + " " + w))) {
                return null;
            }
            IOException reason = refused(c, "MFMT", path);
            Optional<FileStat> st = find(c, path);
            if (st.isEmpty()) {
                throw new NoSuchFileException(path.toString());
            }
            if (st.get().isDirectory() && !directoryTimesRefused) {
                // MINA FtpServer sets files' times only: a directory keeps the server's time, as with rclone's FTP
                directoryTimesRefused = true;
                LOG.debug("{} sets no directory times ({}): directories keep the server's", uriPrefix(), reason.getMessage());
            }
            if (st.get().isDirectory()) {
                return null;
            }
            throw reason;
        });
    }

    // ------------------------------------------------------------------ directories

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        call("MKD", directory, c -> {
            if (find(c, directory).isPresent()) {
                throw new FileAlreadyExistsException(directory.toString());
            }
            if (!FTPReply.isPositiveCompletion(c.client.sendCommand("MKD", wire(c, directory)))) {
                throw parentProblem(c, directory, "MKD");
            }
            return null;
        });
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        call("DELE", file, c -> {
            FileStat st = find(c, file).orElseThrow(() -> new NoSuchFileException(file.toString()));
            if (st.isDirectory()) {
                throw new IsDirectoryException(file.toString());
            }
            if (!FTPReply.isPositiveCompletion(c.client.sendCommand("DELE", wire(c, file)))) {
                throw refused(c, "DELE", file);
            }
            return null;
        });
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        if (directory.pathString().equals("/")) {
            throw new FileSystemException(directory.toString(), null, "the root cannot be deleted");
        }
        call("RMD", directory, c -> {
            FileStat st = find(c, directory).orElseThrow(() -> new NoSuchFileException(directory.toString()));
            if (!st.isDirectory()) {
                throw new NotDirectoryException(directory.toString());
            }
            if (!FTPReply.isPositiveCompletion(rmd(c, directory))) {
                IOException reason = refused(c, "RMD", directory);
                if (!listings.list(this, c, directory).isEmpty()) {
                    throw new DirectoryNotEmptyException(directory.toString());
                }
                throw reason;
            }
            return null;
        });
    }

    /** {@code RMD}, from the root: MINA FtpServer will not remove a connection's working directory. */
    private static int rmd(FtpConnection c, RemotePath directory) throws IOException {
        if (!c.cwd.equals("/")) {
            c.client.sendCommand("CWD", "/");
            c.cwd = "/";
        }
        return c.client.sendCommand("RMD", wire(c, directory));
    }

    // ------------------------------------------------------------------ rename

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        call("RNFR", source, c -> {
            FileStat from = find(c, source).orElseThrow(() -> new NoSuchFileException(source.toString()));
            Optional<FileStat> to = find(c, target);
            if (to.isPresent()) {
                if (!replaceExisting) {
                    throw new FileAlreadyExistsException(target.toString());
                }
                if (to.get().isDirectory()) {
                    if (!listings.list(this, c, target).isEmpty()) {
                        throw new DirectoryNotEmptyException(target.toString());
                    }
                    if (!FTPReply.isPositiveCompletion(rmd(c, target))) {
                        throw refused(c, "RMD", target);
                    }
                } else if (from.isDirectory()) {
                    if (!FTPReply.isPositiveCompletion(c.client.sendCommand("DELE", wire(c, target)))) {
                        throw refused(c, "DELE", target);
                    }
                }
            }
            if (c.client.sendCommand("RNFR", wire(c, source)) != 350) {
                throw refused(c, "RNFR", source);
            }
            if (!FTPReply.isPositiveCompletion(c.client.sendCommand("RNTO", wire(c, target)))) {
                throw parentProblem(c, target, "RNTO");
            }
            return null;
        });
    }

    // ------------------------------------------------------------------ streams

    void streamOpened() {
        openStreams.incrementAndGet();
    }

    void streamClosed() {
        openStreams.decrementAndGet();
    }

    FtpOptions options() {
        return options;
    }
}
