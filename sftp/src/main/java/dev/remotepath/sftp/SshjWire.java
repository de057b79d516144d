package dev.remotepath.sftp;

import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.PublicKey;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.KeyType;
import net.schmizz.sshj.sftp.FileAttributes;
import net.schmizz.sshj.sftp.FileMode;
import net.schmizz.sshj.sftp.OpenMode;
import net.schmizz.sshj.sftp.PacketType;
import net.schmizz.sshj.sftp.RemoteFile;
import net.schmizz.sshj.sftp.Request;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPClient;
import net.schmizz.sshj.sftp.SFTPEngine;
import net.schmizz.sshj.sftp.SFTPException;

/**
 * The SFTP wire over sshj (v3, as sshj speaks it), with {@link SftpOptions#requestsInFlight()}
 * requests in flight each way (64, as OpenSSH's own client, by default). Extensions the sshj API does not wrap ({@code posix-rename},
 * {@code check-file-name}) are sent as raw SSH_FXP_EXTENDED requests.
 */
final class SshjWire implements SftpWire {

    /** sshj's engine, exposing the extensions the server announced; its answers are read by {@link SshjSftpChannel}. */
    private static final class Engine extends SFTPEngine {
        /** The subsystem's channel, whose answers are delivered where they arrive once initialised. */
        private final SshjSftpChannel channel;

        Engine(SSHClient ssh) throws IOException {
            this(new SshjSftpChannel.Opener(ssh));
        }

        private Engine(SshjSftpChannel.Opener opener) throws IOException {
            super(opener);
            this.channel = opener.opened();
        }

        @Override
        protected SFTPEngine init(int requestedVersion) throws IOException {
            super.init(requestedVersion); // reads the VERSION through sshj's stream
            channel.answerInline(getOperativeProtocolVersion());
            return this;
        }

        /** Every request is made after init (the version exchange reads its answer itself). */
        @Override
        public Promise<Response, SFTPException> request(Request request) throws IOException {
            Promise<Response, SFTPException> answer = channel.await(request.getRequestID());
            try {
                transmit(request);
            } catch (IOException | RuntimeException e) {
                channel.forget(request.getRequestID());
                throw e;
            }
            return answer;
        }

        /** False once no answer can come on the channel: the pool opens another connection. */
        boolean answering() {
            return channel.answering();
        }

        boolean offers(String extension) {
            return serverExtensions.containsKey(extension);
        }

        /**
         * Whether a v3 server lists {@code name} among the extension requests it takes, in the
         * names of its {@code supported2} or {@code supported} blob (SSH strings, so the name
         * appears verbatim): how MINA's client decides, and how MINA's server announces them.
         */
        boolean lists(String name) {
            for (String blob : new String[] {serverExtensions.get("supported2"), serverExtensions.get("supported")}) {
                if (blob != null && blob.contains(name)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final SshjLogin.Route route;
    private final SSHClient ssh;
    private final Engine engine;
    private final SFTPClient sftp;
    private final boolean posixRename;
    private final boolean lsetstat;
    private final boolean checkFile;
    private final boolean copyData;
    private final int inFlight;
    /** An upload keeps at most this many bytes of WRITEs unanswered (see {@link #uploadBytesInFlight}). */
    private final long window;
    /** Bytes per READ and per WRITE: 32 KiB, or what the server's limits@openssh.com allows. */
    private final int readSize;
    private final int writeSize;
    /** The SSH window option: a download keeps no more bytes of READs in flight. */
    private final long windowOption;

    private SshjWire(SshjLogin.Route route, Engine engine, int inFlight, long window) {
        this.inFlight = inFlight;
        this.route = route;
        this.ssh = route.ssh();
        this.engine = engine;
        this.sftp = new SFTPClient(engine);
        this.posixRename = engine.offers(POSIX_RENAME);
        this.lsetstat = engine.offers(LSETSTAT) || engine.lists(LSETSTAT);
        this.checkFile = engine.offers("check-file") || engine.offers("check-file-name") || engine.lists("check-file-name");
        this.copyData = HANDLE != null && (engine.offers("copy-data") || engine.lists("copy-data"));
        int[] sizes = requestSizes(engine);
        this.readSize = sizes[0];
        this.writeSize = sizes[1];
        this.windowOption = window;
        this.window = uploadBytesInFlight(window, engine.getSubsystem().getRemoteWinSize(), writeSize);
    }

    /**
     * Unanswered WRITE bytes an upload may keep: our window option, but no more than half the
     * server's channel window less one request. sshj waits for the server's window in the
     * caller's thread, and that wait is not woken when the connection dies: it ends only after
     * the connection's timeout (a copy cut off by a killed server hung for a minute). OpenSSH
     * gives 2 MiB and adjusts once half is consumed, so with at most half of it unanswered a
     * write finds room without waiting.
     */
    static long uploadBytesInFlight(long option, long serverWindow, int request) {
        return Math.max(request, Math.min(option, serverWindow / 2 - request));
    }

    /**
     * READ and WRITE sizes: {@code limits@openssh.com}'s max-read-length and max-write-length where
     * announced and answered, else 32 KiB.
     */
    private static int[] requestSizes(Engine engine) {
        int[] safe = {SftpWire.SAFE_REQUEST, SftpWire.SAFE_REQUEST};
        if (!engine.offers("limits@openssh.com")) {
            return safe;
        }
        try {
            Response r = engine.request(engine.newExtendedRequest("limits@openssh.com"))
                    .retrieve(engine.getTimeoutMs(), TimeUnit.MILLISECONDS);
            if (r.getType() != PacketType.EXTENDED_REPLY) {
                return safe;
            }
            r.readUInt64(); // max-packet-length
            long read = r.readUInt64();
            return new int[] {SftpWire.requestSize(read), SftpWire.requestSize(r.readUInt64())};
        } catch (IOException | RuntimeException refused) {
            return safe; // announced but not answered: the safe size
        }
    }

    /** How often a wait for an answer looks whether the connection is still there. */
    private static final long LIVENESS_MS = 250;

    /** Sends the CLOSE of {@code handle}; its answer is the caller's to await or to leave. */
    static Promise<Response, SFTPException> sendClose(SFTPEngine engine, byte[] handle) throws IOException {
        return engine.request(engine.newRequest(PacketType.CLOSE).putString(handle));
    }

    /**
     * After {@code failure} with {@code handle} open: its CLOSE is sent and not awaited (the server
     * may be gone or silent, and the caller is already failing); a CLOSE that cannot even be sent
     * is added to the failure.
     */
    static void closeAfter(SFTPEngine engine, byte[] handle, Exception failure) {
        try {
            sendClose(engine, handle);
        } catch (IOException notSent) {
            failure.addSuppressed(notSent);
        }
    }

    /**
     * Waits up to the engine's timeout for {@code request}'s answer, looking at the connection every
     * {@value #LIVENESS_MS} ms: sshj fails the answers it awaits when its reader sees the connection
     * end, but a request sent after that (pipelined behind others) is awaited by nobody, and would
     * hold the transfer for the whole timeout after the server is gone.
     */
    static Response awaitAnswer(SFTPEngine engine, Promise<Response, SFTPException> request,
            java.util.function.BooleanSupplier alive, String what) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(engine.getTimeoutMs());
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            Response answer = request.tryRetrieve(Math.clamp(left, 1, LIVENESS_MS), TimeUnit.MILLISECONDS);
            if (answer != null) {
                return answer;
            }
            if (!alive.getAsBoolean()) {
                throw new java.net.SocketException("the connection closed while the answer to " + what + " was awaited");
            }
            if (left <= 0) {
                throw new java.net.SocketTimeoutException("no answer to " + what + " within " + engine.getTimeoutMs() + " ms");
            }
        }
    }

    static SshjWire connect(SftpEndpoint at) throws IOException {
        SshjLogin.Route route = SshjLogin.connect(at);
        try {
            Engine engine = new Engine(route.ssh());
            // Every request (and sshj's read-ahead and write streams) waits this long for its answer.
            engine.setTimeoutMs((int) at.options().readTimeout().toMillis());
            engine.init();
            QuickAcks.settle(route.ssh().getSocket());
            route.hops().forEach(hop -> QuickAcks.settle(hop.getSocket()));
            return new SshjWire(route, engine, at.options().requestsInFlight(), at.options().windowSize());
        } catch (IOException | RuntimeException e) {
            route.disconnectQuietly();
            throw e;
        }
    }

    /** known_hosts as OpenSSH reads it, decided once for both clients ({@link KnownHosts#accept}). */
    static net.schmizz.sshj.transport.verification.HostKeyVerifier verifier(SftpOptions options,
            AtomicReference<String> problem) {
        return new net.schmizz.sshj.transport.verification.HostKeyVerifier() {
            @Override
            public boolean verify(String hostname, int port, PublicKey key) {
                byte[] blob = new Buffer.PlainBuffer().putPublicKey(key).getCompactData();
                return KnownHosts.accept(options, hostname, port, KeyType.fromKey(key).toString(), blob, problem);
            }

            @Override
            public List<String> findExistingAlgorithms(String hostname, int port) {
                try {
                    return KnownHosts.read(options.knownHosts()).keyTypesOf(hostname, port);
                } catch (IOException unreadable) {
                    return List.of(); // verify() reports it
                }
            }
        };
    }

    // ------------------------------------------------------------------ the wire

    /** A request whose status answer comes out in the client-neutral form. */
    private static <T> T answer(Translated.Call<T> request) throws IOException {
        return Translated.call(request, SshjWire::neutral);
    }

    private static void send(Translated.Command request) throws IOException {
        Translated.run(request, SshjWire::neutral);
    }

    private static IOException neutral(IOException e) {
        if (e instanceof SFTPException se && se.getStatusCode() != null
                && se.getStatusCode() != Response.StatusCode.UNKNOWN) {
            return new SftpStatusException(se.getStatusCode().getCode(), se.getMessage(), se);
        }
        return Translated.timedOutOr(e); // sshj's timeouts carry a TimeoutException
    }

    @Override
    public String client() {
        return "sshj";
    }

    @Override
    public boolean alive() {
        return ssh.isConnected() && ssh.isAuthenticated() && engine.answering();
    }

    @Override
    public boolean hasPosixRename() {
        return posixRename;
    }

    @Override
    public boolean hasCheckFile() {
        return checkFile;
    }

    @Override
    public boolean hasLsetstat() {
        return lsetstat;
    }

    @Override
    public boolean hasCopyData() {
        return copyData;
    }

    @Override
    public void copyData(String source, String target, int permissions) throws IOException {
        send(() -> {
            try (RemoteFile in = sftp.open(source, EnumSet.of(OpenMode.READ));
                    RemoteFile out = sftp.open(target, EnumSet.of(OpenMode.WRITE, OpenMode.CREAT, OpenMode.EXCL),
                            creating(permissions))) {
                extended(engine.newExtendedRequest("copy-data").putString(handleOf(in)).putUInt64(0).putUInt64(0)
                        .putString(handleOf(out)).putUInt64(0)).ensureStatusPacketIsOK();
            }
        });
    }

    /** sshj keeps an open file's SFTP handle to itself; copy-data needs two. Null if unreachable. */
    private static final java.lang.reflect.Field HANDLE = handleField();

    private static java.lang.reflect.Field handleField() {
        try {
            java.lang.reflect.Field f = net.schmizz.sshj.sftp.RemoteResource.class.getDeclaredField("handle");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // copy-data is then not offered: copies stream
        }
    }

    private static byte[] handleOf(RemoteFile file) throws IOException {
        try {
            return (byte[]) HANDLE.get(file);
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot read sshj's file handle", e);
        }
    }

    private static Attributes attributes(FileAttributes a) {
        FileMode.Type type = a.getType();
        Attributes.Kind kind = type == FileMode.Type.SYMLINK ? Attributes.Kind.SYMLINK
                : type == FileMode.Type.DIRECTORY ? Attributes.Kind.DIRECTORY
                : type == FileMode.Type.REGULAR ? Attributes.Kind.FILE : Attributes.Kind.OTHER;
        boolean times = a.has(FileAttributes.Flag.ACMODTIME);
        boolean owners = a.has(FileAttributes.Flag.UIDGID);
        // sshj reads v3's unsigned 32-bit times into an int, so a time past 2038-01-19 arrives
        // negative: the low 32 bits are the time the server sent.
        return new Attributes(kind, a.has(FileAttributes.Flag.SIZE) ? a.getSize() : -1,
                times ? a.getMtime() & SftpWire.MAX_V3_SECONDS : -1, times ? a.getAtime() & SftpWire.MAX_V3_SECONDS : -1,
                a.has(FileAttributes.Flag.MODE) ? a.getMode().getPermissionsMask() & 07777 : -1,
                owners ? a.getUID() & 0xffff_ffffL : -1, owners ? a.getGID() & 0xffff_ffffL : -1);
    }

    @Override
    public Attributes stat(String path) throws IOException {
        return answer(() -> attributes(sftp.stat(path)));
    }

    @Override
    public Attributes lstat(String path) throws IOException {
        return answer(() -> attributes(sftp.lstat(path)));
    }

    @Override
    public List<Entry> readDir(String path) throws IOException {
        return answer(() -> {
            SftpWire.Listed listed = new SftpWire.Listed(path);
            java.nio.charset.Charset names = engine.getSubsystem().getRemoteCharset();
            byte[] dir = handle(engine.newRequest(PacketType.OPENDIR).putString(path, names));
            try {
                for (;;) {
                    Response r = engine.request(engine.newRequest(PacketType.READDIR).putString(dir))
                            .retrieve(engine.getTimeoutMs(), TimeUnit.MILLISECONDS);
                    if (r.getType() == PacketType.STATUS) {
                        r.ensureStatusIs(Response.StatusCode.EOF);
                        break;
                    }
                    r.ensurePacketTypeIs(PacketType.NAME);
                    int count = r.readUInt32AsInt();
                    listed.answer(count);
                    for (int i = count; i > 0; i--) {
                        String name = r.readString(names);
                        r.readString(); // the long name: display text, not read
                        listed.add(name, attributes(r.readFileAttributes()));
                    }
                }
            } catch (IOException | RuntimeException e) {
                closeAfter(engine, dir, e);
                throw e;
            }
            sendClose(engine, dir).retrieve(engine.getTimeoutMs(), TimeUnit.MILLISECONDS).ensureStatusPacketIsOK();
            return listed.entries();
        });
    }

    @Override
    public InputStream read(String path, long offset) throws IOException {
        return read(path, offset, Long.MAX_VALUE - offset);
    }

    /**
     * An OPEN of our own: the handle is the stream's, which pipelines its requests (sshj's
     * RemoteFile keeps its handle to itself and answers each request before the next).
     */
    private byte[] open(String path, Set<OpenMode> modes) throws IOException {
        return open(path, modes, SftpWire.NO_PERMISSIONS);
    }

    private byte[] open(String path, Set<OpenMode> modes, int permissions) throws IOException {
        return answer(() -> handle(engine.newRequest(PacketType.OPEN).putString(path, engine.getSubsystem().getRemoteCharset())
                .putUInt32(OpenMode.toMask(modes)).putFileAttributes(creating(permissions))));
    }

    /** An OPEN's attributes: the permissions a file it creates is asked for, or none. */
    private static FileAttributes creating(int permissions) {
        return permissions == SftpWire.NO_PERMISSIONS ? FileAttributes.EMPTY
                : new FileAttributes.Builder().withPermissions(permissions & 0777).build();
    }

    /** The handle an OPEN or OPENDIR is answered with. */
    private byte[] handle(Request open) throws IOException {
        return engine.request(open).retrieve(engine.getTimeoutMs(), TimeUnit.MILLISECONDS).ensurePacketTypeIs(PacketType.HANDLE)
                .readBytes();
    }

    @Override
    public InputStream read(String path, long offset, long length) throws IOException {
        byte[] handle = open(path, EnumSet.of(OpenMode.READ));
        return new Translated.In(new SshjDownloadStream(engine, handle, offset, SftpWire.end(offset, length), readSize,
                SftpWire.readsInFlight(inFlight, windowOption, readSize), this::alive), SshjWire::neutral);
    }

    @Override
    public OutputStream write(String path, WriteMode mode, Optional<Instant> mtime, int permissions) throws IOException {
        Set<OpenMode> modes = switch (mode) {
            case CREATE_NEW -> EnumSet.of(OpenMode.WRITE, OpenMode.CREAT, OpenMode.EXCL);
            case CREATE_OR_TRUNCATE -> EnumSet.of(OpenMode.WRITE, OpenMode.CREAT, OpenMode.TRUNC);
            case CREATE_OR_APPEND -> EnumSet.of(OpenMode.WRITE, OpenMode.CREAT, OpenMode.APPEND);
        };
        byte[] handle = open(path, modes, permissions);
        long start = 0;
        if (mode == WriteMode.CREATE_OR_APPEND) {
            // sshj writes at explicit offsets: an append starts at the current end.
            try {
                start = answer(() -> engine.request(engine.newRequest(PacketType.FSTAT).putString(handle))
                        .retrieve(engine.getTimeoutMs(), TimeUnit.MILLISECONDS).ensurePacketTypeIs(PacketType.ATTRS)
                        .readFileAttributes().getSize());
            } catch (IOException e) {
                closeAfter(engine, handle, e);
                throw e;
            }
        }
        return new Translated.Out(new SshjUploadStream(engine, handle, start, writeSize, inFlight, window, mtime,
                this::alive), SshjWire::neutral);
    }

    @Override
    public void mkdir(String path, int permissions) throws IOException {
        send(() -> engine.makeDir(path, creating(permissions)));
    }

    @Override
    public void rmdir(String path) throws IOException {
        send(() -> sftp.rmdir(path));
    }

    @Override
    public void remove(String path) throws IOException {
        send(() -> sftp.rm(path));
    }

    @Override
    public void rename(String source, String target) throws IOException {
        send(() -> sftp.rename(source, target));
    }

    @Override
    public void posixRename(String source, String target) throws IOException {
        send(() -> {
            extended(engine.newExtendedRequest(POSIX_RENAME).putString(source, names()).putString(target, names()))
                    .ensureStatusPacketIsOK();
        });
    }

    /**
     * The charset paths are written in (NameBytes.CHARSET): sshj's own requests use it, but a
     * request built here writes a bare {@code putString} as UTF-8, which sends a name that is
     * not UTF-8 (kept as byte escapes) as other bytes.
     */
    private java.nio.charset.Charset names() {
        return engine.getSubsystem().getRemoteCharset();
    }

    private Response extended(net.schmizz.sshj.sftp.Request request) throws IOException {
        return engine.request(request).retrieve(engine.getTimeoutMs(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void setTimes(String path, Instant time) throws IOException {
        long s = time.getEpochSecond();
        send(() -> sftp.setattr(path, new FileAttributes.Builder().withAtimeMtime(s, s).build()));
    }

    @Override
    public void setTimesNoFollow(String path, Instant time) throws IOException {
        long s = time.getEpochSecond();
        send(() -> extended(engine.newExtendedRequest(LSETSTAT).putString(path, names())
                .putFileAttributes(new FileAttributes.Builder().withAtimeMtime(s, s).build()))
                .ensureStatusPacketIsOK());
    }

    @Override
    public void setPermissions(String path, int mode) throws IOException {
        send(() -> sftp.setattr(path, new FileAttributes.Builder().withPermissions(mode).build()));
    }

    @Override
    public void symlink(String link, String target) throws IOException {
        send(() -> {
            // OpenSSH (and MINA, following it) take SSH_FXP_SYMLINK's arguments in the reverse of
            // the draft's order, which sshj sends as written: swap them, as OpenSSH's client does.
            sftp.symlink(target, link);
        });
    }

    @Override
    public String readLink(String path) throws IOException {
        return answer(() -> sftp.readlink(path));
    }

    @Override
    public Optional<dev.remotepath.spi.StoreSpace> space(String path) throws IOException {
        if (!engine.offers("statvfs@openssh.com")) {
            return Optional.empty();
        }
        return answer(() -> {
            Response r = extended(engine.newExtendedRequest("statvfs@openssh.com").putString(path, names()));
            if (r.getType() == PacketType.STATUS) {
                r.ensureStatusPacketIsOK();
                return Optional.empty();
            }
            r.ensurePacketTypeIs(PacketType.EXTENDED_REPLY);
            r.readUInt64(); // f_bsize
            long frsize = r.readUInt64();
            long blocks = r.readUInt64();
            long bfree = r.readUInt64();
            long bavail = r.readUInt64();
            return Optional.of(SftpWire.space(frsize, blocks, bfree, bavail));
        });
    }

    @Override
    public Optional<byte[]> checkFile(String path, String algorithm) throws IOException {
        return answer(() -> {
            Response r = extended(engine.newExtendedRequest("check-file-name").putString(path, names()).putString(algorithm)
                    .putUInt64(0).putUInt64(0).putUInt32(0));
            if (r.getType() == PacketType.STATUS) {
                r.ensureStatusPacketIsOK(); // throws the status
                return Optional.empty();
            }
            r.ensurePacketTypeIs(PacketType.EXTENDED_REPLY);
            String used = r.readString();
            if (used.startsWith("check-file")) {
                used = r.readString(); // MINA's server names the extension before the algorithm
            }
            byte[] hash = new byte[r.available()];
            r.readRawBytes(hash);
            // The draft sends the hash raw; MINA's server (and client) frame it as an SSH string.
            if (hash.length > 4) {
                long framed = ((hash[0] & 0xffL) << 24) | ((hash[1] & 0xff) << 16) | ((hash[2] & 0xff) << 8) | (hash[3] & 0xff);
                if (framed == hash.length - 4) {
                    hash = java.util.Arrays.copyOfRange(hash, 4, hash.length);
                }
            }
            if (!algorithm.equalsIgnoreCase(used) || hash.length == 0) {
                return Optional.empty();
            }
            return Optional.of(hash);
        });
    }

    @Override
    public void closeQuietly() {
        // No graceful channel close first: it waits for the server's CLOSE, and a wire is often
        // thrown away because the server stopped answering. DISCONNECT ends the channels with it.
        route.disconnectQuietly();
    }
}
