package dev.remotepath.sftp;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.file.AccessDeniedException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.ServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.NamedFactory;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.cipher.Cipher;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;
import org.apache.sshd.sftp.client.SftpVersionSelector;
import org.apache.sshd.sftp.client.extensions.CheckFileNameExtension;
import org.apache.sshd.sftp.client.extensions.openssh.OpenSSHPosixRenameExtension;
import org.apache.sshd.sftp.client.impl.AbstractSftpClient;
import org.apache.sshd.sftp.client.impl.SftpInputStreamAsync;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/**
 * One SSH connection as a file system, over the Apache MINA SSHD client with SFTP pinned to
 * version 3 (what OpenSSH speaks, so behaviour is the same against every server). Listings use
 * READDIR's attributes, so walks stat nothing; reads and writes are pipelined by MINA's async
 * streams; replacing renames use {@code posix-rename@openssh.com} (a server without it gets
 * {@link Capability#RENAME}: the old file is set aside first). A v3 server answers many
 * distinct failures with a bare FAILURE: those are resolved with one more stat so the caller
 * gets the precise {@code java.nio.file} exception.
 */
public final class SftpFileSystem implements RemoteFileSystem {

    private static final Duration PRECISION = Duration.ofSeconds(1);
    private static final int BUFFER = 32 * 1024;

    private final RemoteFileSystemProvider provider;
    private final String user;
    private final String host;
    private final String connectTo;
    private final int port;
    private final SftpOptions options;
    private final Runnable onClose;
    private final Set<Capability> capabilities;
    private volatile Connection connection;
    private volatile boolean open = true;
    private volatile boolean checkFileFailed;

    /** One SSH session with its SFTP channel and the extensions the server offered. */
    private record Connection(SshClient client, ClientSession session, SftpClient sftp,
            OpenSSHPosixRenameExtension posixRename, CheckFileNameExtension checkFile) {

        boolean alive() {
            return session.isOpen() && sftp.isOpen();
        }

        void closeQuietly() {
            try {
                sftp.close();
            } catch (IOException ignored) {
                // the connection is being thrown away
            }
            session.close(true);
            client.stop();
        }
    }

    /**
     * @param host      the host as the URI names it (an alias of ~/.ssh/config, perhaps)
     * @param connectTo the host actually connected to (the config's HostName, or {@code host})
     */
    SftpFileSystem(RemoteFileSystemProvider provider, String user, String host, String connectTo, int port,
            SftpOptions options, Runnable onClose) throws IOException {
        this.provider = provider;
        this.user = user;
        this.host = host;
        this.connectTo = connectTo;
        this.port = port;
        this.options = options;
        this.onClose = onClose;
        Connection c = connect();
        this.connection = c;
        EnumSet<Capability> caps = EnumSet.of(Capability.WRITE, Capability.SYMBOLIC_LINKS,
                Capability.SET_LAST_MODIFIED_TIME, Capability.POSIX_PERMISSIONS);
        // Plain v3 RENAME never replaces: without posix-rename, replacing goes through RENAME's
        // set-aside dance in the shared code.
        caps.add(c.posixRename() != null ? Capability.ATOMIC_RENAME : Capability.RENAME);
        if (c.checkFile() != null) {
            caps.add(Capability.NATIVE_CHECKSUM);
        }
        this.capabilities = Set.copyOf(caps);
    }

    /**
     * The live connection; a dropped one is re-established here, so the operation after a
     * drop works again (the one in flight during it fails, with a clear error).
     */
    private Connection conn() throws IOException {
        checkOpen();
        Connection c = connection;
        if (c.alive()) {
            return c;
        }
        synchronized (this) {
            c = connection;
            if (!c.alive()) {
                c.closeQuietly();
                c = connect();
                connection = c;
            }
        }
        return c;
    }

    private SftpClient sftp() throws IOException {
        return conn().sftp();
    }

    @FunctionalInterface
    private interface Call<T> {
        T on(SftpClient sftp) throws IOException;
    }

    /**
     * Runs an operation that is safe to repeat (stat, list, remove, rmdir). A transport failure
     * (not a server's answer) may come from a session that is dying without knowing it yet:
     * the connection is dropped and the operation tried once more on a fresh one.
     */
    private <T> T repeatable(Call<T> call) throws IOException {
        Connection c = conn();
        try {
            return call.on(c.sftp());
        } catch (SftpException answer) {
            throw answer;
        } catch (IOException transport) {
            synchronized (this) {
                if (connection == c) {
                    c.closeQuietly();
                }
            }
            return call.on(sftp());
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

    private Connection connect() throws IOException {
        String where = user + "@" + host + ":" + port;
        AtomicReference<String> keyProblem = new AtomicReference<>();
        SshClient c = SshClient.setUpDefaultClient();
        // ~/.ssh/config was applied by the provider, explicitly; MINA must not apply it again.
        c.setHostConfigEntryResolver(org.apache.sshd.client.config.hosts.HostConfigEntryResolver.EMPTY);
        c.setServerKeyVerifier(verifier(options, keyProblem));
        c.setCipherFactories(gcmFirst(c.getCipherFactories()));
        c.start();
        ClientSession s = null;
        try {
            long timeout = options.connectTimeout().toMillis();
            try {
                s = c.connect(user, connectTo, port).verify(timeout).getSession();
            } catch (IOException e) {
                throw connectFailure(where, e, options.connectTimeout());
            }
            if (options.password().isPresent()) {
                char[] pw = options.password().get().get();
                s.addPasswordIdentity(new String(pw)); // MINA keeps passwords as String
                java.util.Arrays.fill(pw, '\0');
            }
            for (KeyPair kp : keys(options.identityFiles())) {
                s.addPublicKeyIdentity(kp);
            }
            try {
                s.auth().verify(timeout);
            } catch (IOException e) {
                if (keyProblem.get() != null) {
                    throw new HostKeyException(where, keyProblem.get());
                }
                if (e.getCause() instanceof java.util.concurrent.TimeoutException || e instanceof SocketTimeoutException) {
                    throw new SocketTimeoutException("sftp " + where + ": logging in timed out after "
                            + options.connectTimeout().toSeconds() + " s");
                }
                throw new AccessDeniedException(where, null, "authentication failed for user " + user
                        + " (offered: " + (options.password().isPresent() ? "password" : "")
                        + (options.identityFiles().isEmpty() ? "" : " keys " + options.identityFiles()) + ")");
            }
            SftpClient sftp = SftpClientFactory.instance().createSftpClient(s, SftpVersionSelector.fixedVersionSelector(3));
            OpenSSHPosixRenameExtension rename = sftp.getExtension(OpenSSHPosixRenameExtension.class);
            CheckFileNameExtension check = sftp.getExtension(CheckFileNameExtension.class);
            return new Connection(c, s, sftp, rename != null && rename.isSupported() ? rename : null,
                    check != null && check.isSupported() ? check : null);
        } catch (IOException | RuntimeException e) {
            if (s != null) {
                s.close(true);
            }
            c.stop();
            if (keyProblem.get() != null && !(e instanceof HostKeyException)) {
                throw new HostKeyException(where, keyProblem.get());
            }
            throw e;
        }
    }

    @Override
    public Set<dev.remotepath.ChecksumAlgorithm> nativeChecksums() {
        return connection.checkFile() == null || checkFileFailed ? Set.of()
                : Set.of(dev.remotepath.ChecksumAlgorithm.MD5, dev.remotepath.ChecksumAlgorithm.SHA1,
                        dev.remotepath.ChecksumAlgorithm.SHA256, dev.remotepath.ChecksumAlgorithm.SHA512);
    }

    /** {@code check-file-name} over the whole file; a server that fails it is not asked again. */
    @Override
    public java.util.Optional<dev.remotepath.Checksum> nativeChecksum(RemotePath file, dev.remotepath.ChecksumAlgorithm algorithm)
            throws IOException {
        if (!nativeChecksums().contains(algorithm)) {
            return java.util.Optional.empty();
        }
        String name = switch (algorithm) {
            case MD5 -> "md5";
            case SHA1 -> "sha1";
            case SHA256 -> "sha256";
            case SHA512 -> "sha512";
            default -> null;
        };
        try {
            var answer = conn().checkFile().checkFileName(file.pathString(), List.of(name), 0L, 0L, 0);
            if (answer == null || !name.equalsIgnoreCase(answer.getKey()) || answer.getValue().size() != 1) {
                return java.util.Optional.empty();
            }
            String hex = java.util.HexFormat.of().formatHex(answer.getValue().iterator().next());
            return java.util.Optional.of(new dev.remotepath.Checksum(algorithm, hex, dev.remotepath.Checksum.Origin.NATIVE));
        } catch (SftpException e) {
            if (e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE) {
                throw mapped(e, file, null);
            }
            checkFileFailed = true; // an extension that fails once is not trusted for this connection
            return java.util.Optional.empty();
        }
    }

    private ServerKeyVerifier verifier(SftpOptions options, AtomicReference<String> problem) {
        if (options.hostKeyPolicy() == SftpOptions.HostKeyPolicy.ACCEPT_ALL) {
            return AcceptAllServerKeyVerifier.INSTANCE;
        }
        ServerKeyVerifier unknown = options.hostKeyPolicy() == SftpOptions.HostKeyPolicy.ACCEPT_NEW
                ? AcceptAllServerKeyVerifier.INSTANCE
                : (session, address, key) -> {
                    problem.set("the server's " + KeyUtils.getKeyType(key) + " key (" + KeyUtils.getFingerPrint(key)
                            + ") is not in " + options.knownHosts() + "; add it, or choose HostKeyPolicy.ACCEPT_NEW");
                    return false;
                };
        Path knownHosts = options.knownHosts(); // (the anonymous class below has an "options" field of its own)
        KnownHostsServerKeyVerifier known = new KnownHostsServerKeyVerifier(unknown, knownHosts) {
            @Override
            public boolean acceptModifiedServerKey(ClientSession clientSession, java.net.SocketAddress remoteAddress,
                    org.apache.sshd.client.config.hosts.KnownHostEntry entry, java.security.PublicKey expected,
                    java.security.PublicKey actual) {
                problem.set("the server's key CHANGED: " + knownHosts + " expects " + KeyUtils.getFingerPrint(expected)
                        + " but the server sent " + KeyUtils.getFingerPrint(actual) + " (possible man-in-the-middle)");
                return false;
            }
        };
        return known;
    }

    private static List<KeyPair> keys(List<Path> files) throws IOException {
        List<KeyPair> out = new ArrayList<>();
        for (Path f : files) {
            try (InputStream in = Files.newInputStream(f)) {
                for (KeyPair kp : SecurityUtils.loadKeyPairIdentities(null, NamedResource.ofName(f.toString()), in,
                        FilePasswordProvider.EMPTY)) {
                    out.add(kp);
                }
            } catch (java.security.GeneralSecurityException e) {
                throw new IOException("cannot load the private key " + f + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static IOException connectFailure(String where, IOException e, Duration timeout) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        if (root instanceof ConnectException || String.valueOf(root.getMessage()).contains("Connection refused")) {
            ConnectException c = new ConnectException("sftp " + where + ": connection refused");
            c.initCause(e);
            return c;
        }
        if (root instanceof java.util.concurrent.TimeoutException || String.valueOf(e.getMessage()).contains("timeout")) {
            SocketTimeoutException t = new SocketTimeoutException("sftp " + where + ": no connection within " + timeout.toSeconds() + " s");
            t.initCause(e);
            return t;
        }
        return new IOException("sftp " + where + ": cannot connect: " + root.getMessage(), e);
    }

    // ------------------------------------------------------------------ identity

    @Override
    public RemoteFileSystemProvider provider() {
        return provider;
    }

    @Override
    public String uriPrefix() {
        return "sftp://" + UriPaths.encodePath(user).replace("@", "%40").replace("/", "%2F").replace(":", "%3A") + "@"
                + (host.contains(":") ? "[" + host + "]" : host) + (port == 22 ? "" : ":" + port);
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    /** Open until closed: a dropped connection is re-established by the next operation. */
    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        onClose.run();
        Connection c = connection;
        try {
            c.sftp().close();
        } finally {
            c.session().close(false);
            c.client().stop();
        }
    }

    @Override
    public String toString() {
        return "SftpFileSystem[" + uriPrefix() + "]";
    }

    private void checkOpen() {
        if (!open) {
            throw new ClosedFileSystemException();
        }
    }

    // ------------------------------------------------------------------ errors

    /** A status answer as the matching java.nio.file exception; FAILURE stays generic for callers to refine. */
    private static IOException mapped(SftpException e, RemotePath p, RemotePath other) {
        String f = p.toString();
        String o = other == null ? null : other.toString();
        IOException out = switch (e.getStatus()) {
            case SftpConstants.SSH_FX_NO_SUCH_FILE, SftpConstants.SSH_FX_NO_SUCH_PATH -> new NoSuchFileException(f, o, null);
            case SftpConstants.SSH_FX_PERMISSION_DENIED, SftpConstants.SSH_FX_WRITE_PROTECT ->
                    new AccessDeniedException(f, o, e.getMessage());
            case SftpConstants.SSH_FX_FILE_ALREADY_EXISTS -> new FileAlreadyExistsException(f, o, null);
            case SftpConstants.SSH_FX_DIR_NOT_EMPTY -> new DirectoryNotEmptyException(f);
            case SftpConstants.SSH_FX_NOT_A_DIRECTORY -> new NotDirectoryException(f);
            case SftpConstants.SSH_FX_FILE_IS_A_DIRECTORY -> new FileSystemException(f, o, "is a directory");
            case SftpConstants.SSH_FX_NO_SPACE_ON_FILESYSTEM, SftpConstants.SSH_FX_QUOTA_EXCEEDED ->
                    new FileSystemException(f, o, "no space left: " + e.getMessage());
            default -> new FileSystemException(f, o, "SFTP error " + e.getStatus() + ": " + e.getMessage());
        };
        out.initCause(e);
        return out;
    }

    private IOException transport(IOException e, String operation, RemotePath p) {
        if (e instanceof SftpException se) {
            return mapped(se, p, null);
        }
        if (!connection.alive() || e instanceof org.apache.sshd.common.SshException) {
            return new IOException("sftp " + user + "@" + host + ":" + port + ": connection lost during " + operation
                    + " of " + p + " (" + e.getMessage() + ")", e);
        }
        return new IOException("sftp " + operation + " of " + p + " failed: " + e.getMessage(), e);
    }

    private FileStat lstatQuietly(RemotePath p) {
        try {
            return toStat(sftp().lstat(p.pathString()));
        } catch (IOException e) {
            return null;
        }
    }

    // ------------------------------------------------------------------ metadata

    private static FileStat toStat(SftpClient.Attributes a) {
        FileType type = a.isSymbolicLink() ? FileType.SYMLINK : a.isDirectory() ? FileType.DIRECTORY
                : a.isRegularFile() ? FileType.FILE : FileType.OTHER;
        FileStat.Builder b = FileStat.builder(type);
        if (a.getFlags().contains(SftpClient.Attribute.Size)) {
            b.size(a.getSize());
        }
        FileTime m = a.getModifyTime();
        if (m != null) {
            b.lastModified(m.toInstant(), PRECISION);
        }
        FileTime at = a.getAccessTime();
        if (at != null) {
            b.lastAccess(at.toInstant());
        }
        if (a.getFlags().contains(SftpClient.Attribute.Perms)) {
            b.permissions(permissions(a.getPermissions()));
        }
        return b.build();
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        EnumSet<PosixFilePermission> s = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ};
        for (int bit = 0; bit < 9; bit++) {
            if ((mode & (1 << bit)) != 0) {
                s.add(order[bit]);
            }
        }
        return s;
    }

    private static int mode(Set<PosixFilePermission> perms) {
        int m = 0;
        for (PosixFilePermission p : perms) {
            m |= switch (p) {
                case OWNER_READ -> 0400;
                case OWNER_WRITE -> 0200;
                case OWNER_EXECUTE -> 0100;
                case GROUP_READ -> 040;
                case GROUP_WRITE -> 020;
                case GROUP_EXECUTE -> 010;
                case OTHERS_READ -> 04;
                case OTHERS_WRITE -> 02;
                case OTHERS_EXECUTE -> 01;
            };
        }
        return m;
    }

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        checkOpen();
        try {
            return toStat(repeatable(sftp -> followLinks ? sftp.stat(path.pathString()) : sftp.lstat(path.pathString())));
        } catch (IOException e) {
            throw transport(e, "stat", path);
        }
    }

    /** One READDIR exchange per batch of names, each with its attributes: nothing is stat'ed. */
    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        checkOpen();
        List<ListedEntry> out = new ArrayList<>();
        try {
            out.addAll(repeatable(sftp -> {
                List<ListedEntry> entries = new ArrayList<>();
                try {
                    for (SftpClient.DirEntry e : sftp.readDir(directory.pathString())) {
                        String name = e.getFilename();
                        if (name.equals(".") || name.equals("..")) {
                            continue;
                        }
                        entries.add(new ListedEntry(name, toStat(e.getAttributes())));
                    }
                } catch (java.io.UncheckedIOException lazy) {
                    throw lazy.getCause(); // MINA's iterable opens the directory on first use
                }
                return entries;
            }));
        } catch (IOException e) {
            if (e instanceof SftpException se && se.getStatus() == SftpConstants.SSH_FX_FAILURE
                    || e instanceof SftpException se2 && se2.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE) {
                FileStat s = lstatQuietly(directory);
                if (s != null && !s.isDirectory() && !(s.isSymbolicLink())) {
                    throw new NotDirectoryException(directory.toString());
                }
            }
            throw transport(e, "list", directory);
        }
        return DirectoryListing.of(out);
    }

    // ------------------------------------------------------------------ content

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        checkOpen();
        SftpClient.CloseableHandle handle;
        try {
            handle = sftp().open(file.pathString(), SftpClient.OpenMode.Read);
        } catch (IOException e) {
            FileStat s = lstatQuietly(file);
            if (s != null && s.isDirectory()) {
                throw new FileSystemException(file.toString(), null, "is a directory");
            }
            throw transport(e, "open", file);
        }
        // OpenSSH lets a directory be opened and fails the first READ. Checking up front would
        // cost a round trip per file read; the failure path says "is a directory" instead.
        return new Translated.In(new SftpInputStreamAsync((AbstractSftpClient) sftp(), BUFFER, offset,
                Long.MAX_VALUE - offset, file.pathString(), handle), e -> {
                    FileStat s = lstatQuietly(file);
                    return s != null && s.isDirectory() ? new FileSystemException(file.toString(), null, "is a directory")
                            : transport(e, "read", file);
                });
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        checkOpen();
        List<SftpClient.OpenMode> modes = switch (mode) {
            case CREATE_NEW -> List.of(SftpClient.OpenMode.Write, SftpClient.OpenMode.Create, SftpClient.OpenMode.Exclusive);
            case CREATE_OR_TRUNCATE -> List.of(SftpClient.OpenMode.Write, SftpClient.OpenMode.Create, SftpClient.OpenMode.Truncate);
            case CREATE_OR_APPEND -> List.of(SftpClient.OpenMode.Write, SftpClient.OpenMode.Create, SftpClient.OpenMode.Append);
        };
        try {
            return new Translated.Out(sftp().write(file.pathString(), BUFFER, modes), e -> transport(e, "write", file));
        } catch (IOException e) {
            FileStat s = lstatQuietly(file);
            if (s != null && s.isDirectory()) {
                throw new FileSystemException(file.toString(), null, "is a directory");
            }
            if (s != null && mode == WriteMode.CREATE_NEW && e instanceof SftpException) {
                throw new FileAlreadyExistsException(file.toString());
            }
            if (s == null && e instanceof SftpException && lstatQuietly(file.parent()) == null) {
                throw new NoSuchFileException(file.toString(), null, "the parent directory does not exist");
            }
            throw transport(e, "write", file);
        }
    }

    // ------------------------------------------------------------------ structure

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        checkOpen();
        try {
            sftp().mkdir(directory.pathString());
        } catch (IOException e) {
            if (e instanceof SftpException se && se.getStatus() != SftpConstants.SSH_FX_NO_SUCH_FILE
                    && lstatQuietly(directory) != null) {
                throw new FileAlreadyExistsException(directory.toString());
            }
            if (e instanceof SftpException && lstatQuietly(directory.parent()) == null) {
                throw new NoSuchFileException(directory.toString(), null, "the parent directory does not exist");
            }
            throw transport(e, "mkdir", directory);
        }
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        checkOpen();
        try {
            repeatable(sftp -> {
                sftp.remove(file.pathString());
                return null;
            });
        } catch (IOException e) {
            throw transport(e, "remove", file);
        }
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        checkOpen();
        try {
            repeatable(sftp -> {
                sftp.rmdir(directory.pathString());
                return null;
            });
        } catch (IOException e) {
            if (e instanceof SftpException se && se.getStatus() == SftpConstants.SSH_FX_FAILURE) {
                boolean nonEmpty;
                try {
                    nonEmpty = hasChildren(directory);
                } catch (SftpException unreadable) {
                    nonEmpty = false;
                }
                if (nonEmpty) {
                    throw new DirectoryNotEmptyException(directory.toString());
                }
            }
            throw transport(e, "rmdir", directory);
        }
    }

    private boolean hasChildren(RemotePath directory) throws IOException {
        for (SftpClient.DirEntry e : sftp().readDir(directory.pathString())) {
            if (!e.getFilename().equals(".") && !e.getFilename().equals("..")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        checkOpen();
        try {
            OpenSSHPosixRenameExtension posixRename = conn().posixRename();
            if (replaceExisting && posixRename != null) {
                posixRename.posixRename(source.pathString(), target.pathString());
            } else {
                if (!replaceExisting && lstatQuietly(target) != null) {
                    throw new FileAlreadyExistsException(target.toString());
                }
                sftp().rename(source.pathString(), target.pathString());
            }
        } catch (SftpException e) {
            if (lstatQuietly(source) == null) {
                throw new NoSuchFileException(source.toString());
            }
            if (lstatQuietly(target) != null && (!replaceExisting || conn().posixRename() == null)) {
                throw new FileAlreadyExistsException(target.toString());
            }
            throw mapped(e, source, target);
        } catch (FileSystemException e) {
            throw e;
        } catch (IOException e) {
            throw transport(e, "rename", source);
        }
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        checkOpen();
        SftpClient.Attributes a = new SftpClient.Attributes();
        FileTime t = FileTime.from(time);
        a.modifyTime(t);
        a.accessTime(t); // SFTPv3 sets both times together
        try {
            sftp().setStat(path.pathString(), a);
        } catch (IOException e) {
            throw transport(e, "setstat", path);
        }
    }

    @Override
    public void setPermissions(RemotePath path, Set<PosixFilePermission> permissions) throws IOException {
        checkOpen();
        SftpClient.Attributes a = new SftpClient.Attributes();
        a.setPermissions(mode(permissions));
        try {
            sftp().setStat(path.pathString(), a);
        } catch (IOException e) {
            throw transport(e, "setstat", path);
        }
    }

    @Override
    public void createSymbolicLink(RemotePath link, String target) throws IOException {
        checkOpen();
        try {
            if (lstatQuietly(link) != null) {
                throw new FileAlreadyExistsException(link.toString());
            }
            sftp().symLink(link.pathString(), target);
        } catch (FileSystemException e) {
            throw e;
        } catch (IOException e) {
            throw transport(e, "symlink", link);
        }
    }

    @Override
    public String readSymbolicLink(RemotePath link) throws IOException {
        checkOpen();
        try {
            return sftp().readLink(link.pathString());
        } catch (IOException e) {
            FileStat s = lstatQuietly(link);
            if (s != null && !s.isSymbolicLink()) {
                throw new java.nio.file.NotLinkException(link.toString());
            }
            throw transport(e, "readlink", link);
        }
    }
}
