package dev.remotepath.sftp;

import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.keyverifier.ServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.NamedFactory;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.cipher.Cipher;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.RawSftpClient;
import org.apache.sshd.sftp.client.SftpVersionSelector;
import org.apache.sshd.sftp.client.extensions.CheckFileNameExtension;
import org.apache.sshd.sftp.client.extensions.CopyDataExtension;
import org.apache.sshd.sftp.client.extensions.openssh.OpenSSHLimitsExtension;
import org.apache.sshd.sftp.client.extensions.openssh.OpenSSHPosixRenameExtension;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.apache.sshd.sftp.client.impl.SftpResponse;
import org.apache.sshd.sftp.client.impl.SftpStatus;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/** The SFTP wire over the Apache MINA SSHD client, SFTP pinned to version 3. */
final class MinaWire implements SftpWire {

    private static final int BUFFER = SftpWire.SAFE_REQUEST;

    private final SshClient client;
    private final ClientSession session;
    private final SftpClient sftp;
    /** Whether the server offers {@code posix-rename@openssh.com} (sent by a request of our own). */
    private final boolean posixRename;
    private final boolean lsetstat;
    private final CheckFileNameExtension checkFile;
    private final CopyDataExtension copyData;
    /** Bytes per READ and per WRITE request: 32 KiB, or what the server's limits@openssh.com allows. */
    private final int readSize;
    private final int writeSize;

    /** Unanswered WRITEs per upload stream. */
    private final int inFlight;
    /** The SSH channel window: an upload keeps at most this many bytes of WRITEs unanswered. */
    private final long window;

    private MinaWire(SshClient client, ClientSession session, SftpClient sftp, int inFlight, long window) {
        this.inFlight = inFlight;
        this.window = window;
        this.client = client;
        this.session = session;
        this.sftp = sftp;
        OpenSSHPosixRenameExtension rename = sftp.getExtension(OpenSSHPosixRenameExtension.class);
        CheckFileNameExtension check = sftp.getExtension(CheckFileNameExtension.class);
        this.posixRename = rename != null && rename.isSupported();
        this.checkFile = check != null && check.isSupported() ? check : null;
        this.lsetstat = sftp.getServerExtensions().containsKey(SftpWire.LSETSTAT);
        CopyDataExtension copy = sftp.getExtension(CopyDataExtension.class);
        // OpenSSH announces copy-data as an extension of its own, which MINA's isSupported()
        // (reading the "supported2" list) does not look at.
        boolean offered = copy != null && (copy.isSupported() || sftp.getServerExtensions().containsKey("copy-data"));
        this.copyData = offered ? copy : null;
        int[] sizes = requestSizes(sftp);
        this.readSize = sizes[0];
        this.writeSize = sizes[1];
    }

    /**
     * READ and WRITE request sizes: 32 KiB (what every server must take) unless the server tells
     * its limits ({@code limits@openssh.com}, one request per connection): OpenSSH takes 255 KiB
     * both ways. A 256 MiB upload in such WRITEs took 0.9 s instead of 1.5 s, and fewer, larger
     * READs keep MINA's read at the pace of OpenSSH's own client (fewer requests to answer
     * through the same window).
     */
    private static int[] requestSizes(SftpClient sftp) {
        int[] safe = {BUFFER, BUFFER};
        OpenSSHLimitsExtension limits = sftp.getExtension(OpenSSHLimitsExtension.class);
        if (limits == null || !sftp.getServerExtensions().containsKey("limits@openssh.com")) {
            return safe;
        }
        try {
            var l = limits.limits();
            return new int[] {SftpWire.requestSize(l.maxReadLength), SftpWire.requestSize(l.maxWriteLength)};
        } catch (IOException | RuntimeException refused) {
            return safe; // announced but not answered: the safe size
        }
    }

    /**
     * MINA's default cipher order with AES-GCM moved to the front (nothing dropped): the JDK runs
     * GCM on AES-NI and carry-less-multiply intrinsics with no separate MAC, while MINA's first
     * choice (ChaCha20-Poly1305) runs in plain Java. Uploads of 256 MiB to OpenSSH took 2.4x
     * less time with it (docs/benchmarks.md).
     */
    private static List<NamedFactory<Cipher>> gcmFirst(List<NamedFactory<Cipher>> defaults) {
        List<NamedFactory<Cipher>> ordered = new ArrayList<>(defaults);
        ordered.sort(Comparator.comparingInt(f -> f.getName().contains("gcm") ? 0 : 1)); // stable: the rest keep their order
        return ordered;
    }

    /**
     * MINA's default key exchange order with Streamlined NTRU Prime moved behind X25519 (nothing
     * dropped): sntrup761 runs in BouncyCastle's plain Java, and a fresh process spent ~0.6 s of
     * CPU generating its key pair, more than everything else a one-directory {@code rpath ls}
     * does. The exchange with servers that offer X25519 (every OpenSSH since 6.5) is then
     * classical X25519, as rclone's, OpenSSH's before 9.0 and sshj's own order make it; a server
     * that offers only sntrup761 still gets it. (MINA 2.20 can do ML-KEM hybrids but does not
     * enable them by default; neither does this.)
     */
    static <T extends org.apache.sshd.common.NamedResource> List<T> sntrupAfterX25519(List<T> defaults) {
        List<T> ordered = new ArrayList<>();
        List<T> sntrup = new ArrayList<>();
        int afterX25519 = 0;
        for (T f : defaults) {
            if (f.getName().startsWith("sntrup")) {
                sntrup.add(f);
            } else {
                ordered.add(f);
                if (f.getName().startsWith("curve25519")) {
                    afterX25519 = ordered.size();
                }
            }
        }
        ordered.addAll(afterX25519, sntrup);
        return ordered;
    }

    static MinaWire connect(SftpEndpoint at) throws IOException {
        SftpOptions options = at.options();
        SshClient c = SshClient.setUpDefaultClient();
        // ~/.ssh/config was applied by the provider, explicitly; MINA must not apply it again,
        // nor load ~/.ssh's keys on its own (Login decides which keys are offered, in OpenSSH's order).
        c.setHostConfigEntryResolver(org.apache.sshd.client.config.hosts.HostConfigEntryResolver.EMPTY);
        c.setKeyIdentityProvider(org.apache.sshd.common.keyprovider.KeyIdentityProvider.EMPTY_KEYS_PROVIDER);
        c.setServerKeyVerifier(MinaLogin::verify);
        c.setAgentFactory(new MinaLogin.Agents());
        c.setCipherFactories(CipherChoice.pick(options.ciphers(), options.otherCiphers(), gcmFirst(c.getCipherFactories()), NamedFactory::getName, "MINA"));
        c.setKeyExchangeFactories(sntrupAfterX25519(c.getKeyExchangeFactories()));
        if (!options.keepAlive().isZero()) {
            org.apache.sshd.core.CoreModuleProperties.HEARTBEAT_INTERVAL.set(c, options.keepAlive());
        }
        // MINA's 2 MiB default window throttles reads 3-4x even on loopback (docs/benchmarks.md).
        org.apache.sshd.core.CoreModuleProperties.WINDOW_SIZE.set(c, options.windowSize());
        org.apache.sshd.core.CoreModuleProperties.TCP_NODELAY.set(c, true);
        MinaTransport transport = new MinaTransport();
        c.setIoServiceFactoryFactory(transport);
        // MINA's SFTP client waits this long for each answer (its streams too). It is also the
        // session's idle timeout: an idle connection closes then and the file system reconnects
        // on its next use.
        org.apache.sshd.core.CoreModuleProperties.IDLE_TIMEOUT.set(c, options.readTimeout());
        try {
            c.start();
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause(); // the transport's threads could not start (MinaTransport)
        }
        try {
            // Every hop's session lives on this client: stopping it (closeQuietly) ends them all.
            ClientSession s = MinaLogin.open(c, at);
            SftpClient sftp = new MinaSftpClient(s, SftpVersionSelector.fixedVersionSelector(3), options.readTimeout());
            // Names are bytes on the wire: kept losslessly, as the local backend keeps them.
            sftp.setNameDecodingCharset(dev.remotepath.NameBytes.CHARSET);
            transport.settle();
            return new MinaWire(c, s, sftp, options.requestsInFlight(), options.windowSize());
        } catch (IOException | RuntimeException e) {
            c.stop();
            throw e;
        }
    }

    // ------------------------------------------------------------------ the wire

    /** A request whose status answer comes out in the client-neutral form. */
    private static <T> T answer(Translated.Call<T> request) throws IOException {
        return Translated.call(request, MinaWire::neutral);
    }

    private static void send(Translated.Command request) throws IOException {
        Translated.run(request, MinaWire::neutral);
    }

    private static IOException neutral(IOException e) {
        if (e instanceof SftpException se) {
            return new SftpStatusException(se.getStatus(), se.getMessage(), se);
        }
        return Translated.timedOutOr(e);
    }

    @Override
    public String client() {
        return "mina";
    }

    @Override
    public boolean alive() {
        return session.isOpen() && sftp.isOpen();
    }

    @Override
    public boolean hasPosixRename() {
        return posixRename;
    }

    @Override
    public boolean hasCheckFile() {
        return checkFile != null;
    }

    @Override
    public boolean hasLsetstat() {
        return lsetstat;
    }

    private static Attributes attributes(SftpClient.Attributes a) {
        Attributes.Kind kind = a.isSymbolicLink() ? Attributes.Kind.SYMLINK : a.isDirectory() ? Attributes.Kind.DIRECTORY
                : a.isRegularFile() ? Attributes.Kind.FILE : Attributes.Kind.OTHER;
        FileTime m = a.getModifyTime();
        FileTime at = a.getAccessTime();
        boolean owners = a.getFlags().contains(SftpClient.Attribute.UidGid);
        return new Attributes(kind, a.getFlags().contains(SftpClient.Attribute.Size) ? a.getSize() : -1,
                m == null ? -1 : m.toInstant().getEpochSecond(), at == null ? -1 : at.toInstant().getEpochSecond(),
                a.getFlags().contains(SftpClient.Attribute.Perms) ? a.getPermissions() & 07777 : -1,
                owners ? a.getUserId() & 0xffff_ffffL : -1, owners ? a.getGroupId() & 0xffff_ffffL : -1);
    }

    @Override
    public boolean hasCopyData() {
        return copyData != null;
    }

    @Override
    public void copyData(String source, String target, int permissions) throws IOException {
        send(() -> {
            try (SftpClient.CloseableHandle in = sftp.open(source, SftpClient.OpenMode.Read);
                    SftpClient.CloseableHandle out = ((MinaSftpClient) sftp).open(target, List.of(SftpClient.OpenMode.Write,
                            SftpClient.OpenMode.Create, SftpClient.OpenMode.Exclusive), permissions)) {
                copyData.copyData(in, 0L, 0L, out, 0L); // length 0: to the end of the source
            }
        });
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
            MinaSftpClient client = (MinaSftpClient) sftp;
            // The handle object is never closed: the CLOSE is sent here, awaited or not.
            SftpClient.CloseableHandle dir = sftp.openDir(path);
            try {
                for (List<SftpClient.DirEntry> batch; (batch = sftp.readDir(dir)) != null;) {
                    listed.answer(batch.size());
                    for (SftpClient.DirEntry e : batch) {
                        listed.add(e.getFilename(), attributes(e.getAttributes()));
                    }
                }
            } catch (IOException | RuntimeException e) {
                client.closeAfter(dir.getIdentifier(), e);
                throw e;
            }
            client.closeHandle(dir.getIdentifier(), true);
            return listed.entries();
        });
    }

    @Override
    public InputStream read(String path, long offset) throws IOException {
        return read(path, offset, Long.MAX_VALUE - offset);
    }

    @Override
    public InputStream read(String path, long offset, long length) throws IOException {
        SftpClient.CloseableHandle handle = answer(() -> sftp.open(path, SftpClient.OpenMode.Read));
        // The handle object is never closed: the stream sends the CLOSE itself.
        return new Translated.In(new MinaDownloadStream((MinaSftpClient) sftp, handle.getIdentifier(), offset,
                SftpWire.end(offset, length), readSize, SftpWire.readsInFlight(inFlight, window, readSize)),
                MinaWire::neutral);
    }

    @Override
    public OutputStream write(String path, WriteMode mode, Optional<Instant> mtime, int permissions) throws IOException {
        List<SftpClient.OpenMode> modes = switch (mode) {
            case CREATE_NEW -> List.of(SftpClient.OpenMode.Write, SftpClient.OpenMode.Create, SftpClient.OpenMode.Exclusive);
            case CREATE_OR_TRUNCATE -> List.of(SftpClient.OpenMode.Write, SftpClient.OpenMode.Create, SftpClient.OpenMode.Truncate);
            case CREATE_OR_APPEND -> List.of(SftpClient.OpenMode.Write, SftpClient.OpenMode.Create, SftpClient.OpenMode.Append);
        };
        SftpClient.CloseableHandle handle = answer(() -> ((MinaSftpClient) sftp).open(path, modes, permissions));
        // The stream sends the CLOSE itself (pipelined with the last WRITE); the handle object is never closed.
        long start = 0;
        if (mode == WriteMode.CREATE_OR_APPEND) {
            try {
                start = answer(() -> sftp.stat(handle).getSize()); // v3 WRITEs carry offsets: an append starts at the end
            } catch (IOException e) {
                closeQuietly(handle);
                throw e;
            }
        }
        return new Translated.Out(new MinaUploadStream((RawSftpClient) sftp, handle.getIdentifier(), start, writeSize,
                inFlight, window, mtime), MinaWire::neutral);
    }

    private static void closeQuietly(SftpClient.CloseableHandle handle) {
        try {
            handle.close();
        } catch (IOException ignored) {
            // the failure being reported matters more
        }
    }

    @Override
    public void mkdir(String path, int permissions) throws IOException {
        send(() -> ((MinaSftpClient) sftp).mkdir(path, permissions));
    }

    @Override
    public void rmdir(String path) throws IOException {
        send(() -> sftp.rmdir(path));
    }

    @Override
    public void remove(String path) throws IOException {
        send(() -> sftp.remove(path));
    }

    @Override
    public void rename(String source, String target) throws IOException {
        send(() -> sftp.rename(source, target));
    }

    /**
     * A request of our own: MINA's extensions write paths as UTF-8 whatever the client's name
     * charset, so a name that is not UTF-8 (kept as byte escapes) went out as other bytes and
     * the rename of a copy's temporary failed with "no such file".
     */
    @Override
    public void posixRename(String source, String target) throws IOException {
        Buffer b = new ByteArrayBuffer();
        b.putString(SftpWire.POSIX_RENAME);
        b.putString(source, sftp.getNameDecodingCharset());
        b.putString(target, sftp.getNameDecodingCharset());
        sendExpectingOk(SftpConstants.SSH_FXP_EXTENDED, b);
    }

    @Override
    public void setTimes(String path, Instant time) throws IOException {
        // A SETSTAT of our own: MINA writes v3 times as signed 32-bit values and refuses any
        // past 2038-01-19 ("Invalid INT32 value"), where the protocol's are unsigned.
        Buffer b = new ByteArrayBuffer();
        b.putString(path, sftp.getNameDecodingCharset());
        sendTimes(SftpConstants.SSH_FXP_SETSTAT, b, time);
    }

    @Override
    public void setTimesNoFollow(String path, Instant time) throws IOException {
        Buffer b = new ByteArrayBuffer();
        b.putString(SftpWire.LSETSTAT);
        b.putString(path, sftp.getNameDecodingCharset());
        sendTimes(SftpConstants.SSH_FXP_EXTENDED, b, time);
    }

    /** Appends v3 ATTRS of both times to {@code b}, sends it as {@code type} and expects an OK. */
    private void sendTimes(int type, Buffer b, Instant time) throws IOException {
        long seconds = time.getEpochSecond() & SftpWire.MAX_V3_SECONDS;
        b.putUInt(SftpConstants.SSH_FILEXFER_ATTR_ACMODTIME);
        b.putUInt(seconds);
        b.putUInt(seconds);
        sendExpectingOk(type, b);
    }

    /** Sends {@code b} as a request of {@code type} whose answer is a status, and expects an OK. */
    private void sendExpectingOk(int type, Buffer b) throws IOException {
        send(() -> {
            RawSftpClient raw = (RawSftpClient) sftp;
            int id = raw.send(type, b);
            SftpStatus status = SftpStatus.parse(SftpResponse.parse(type, raw.receive(id)));
            if (!status.isOk()) {
                throw new SftpException(status.getStatusCode(), status.getMessage());
            }
        });
    }

    @Override
    public void setPermissions(String path, int mode) throws IOException {
        SftpClient.Attributes a = new SftpClient.Attributes();
        a.setPermissions(mode);
        send(() -> sftp.setStat(path, a));
    }

    @Override
    public void symlink(String link, String target) throws IOException {
        send(() -> sftp.symLink(link, target));
    }

    @Override
    public String readLink(String path) throws IOException {
        return answer(() -> sftp.readLink(path));
    }

    @Override
    public Optional<dev.remotepath.spi.StoreSpace> space(String path) throws IOException {
        var statvfs = sftp.getExtension(org.apache.sshd.sftp.client.extensions.openssh.OpenSSHStatPathExtension.class);
        if (statvfs == null || !statvfs.isSupported()) {
            return Optional.empty();
        }
        if (dev.remotepath.NameBytes.hasEscapes(path)) {
            return Optional.empty(); // MINA's extension would send the name as other bytes
        }
        var info = answer(() -> statvfs.stat(path));
        return Optional.of(SftpWire.space(info.f_frsize, info.f_blocks, info.f_bfree, info.f_bavail));
    }

    @Override
    public Optional<byte[]> checkFile(String path, String algorithm) throws IOException {
        if (dev.remotepath.NameBytes.hasEscapes(path)) {
            return Optional.empty(); // as space(): the file is read and hashed instead
        }
        var reply = answer(() -> checkFile.checkFileName(path, List.of(algorithm), 0L, 0L, 0));
        if (reply == null || !algorithm.equalsIgnoreCase(reply.getKey()) || reply.getValue().size() != 1) {
            return Optional.empty();
        }
        return Optional.of(reply.getValue().iterator().next());
    }

    @Override
    public void closeQuietly() {
        try {
            sftp.close();
        } catch (IOException ignored) {
            // the connection is being thrown away
        }
        session.close(true);
        client.stop();
    }
}
