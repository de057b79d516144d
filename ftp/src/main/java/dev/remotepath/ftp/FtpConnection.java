package dev.remotepath.ftp;

import dev.remotepath.spi.Timeouts;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.Locale;
import org.apache.commons.net.ftp.FTP;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPClientConfig;
import org.apache.commons.net.ftp.FTPFileEntryParser;
import org.apache.commons.net.ftp.parser.DefaultFTPFileEntryParserFactory;
import org.apache.commons.net.ftp.FTPReply;
import org.apache.commons.net.ftp.FTPSClient;

/**
 * One logged-in control connection: TLS negotiated ({@code AUTH TLS} or implicit, then {@code
 * PBSZ 0} and {@code PROT P}, so data connections are encrypted too), binary type, passive or
 * active, and what the server's {@code FEAT} offers. A data connection in passive mode goes to
 * the control connection's address whatever address the server's {@code PASV} answer names: a
 * server cannot point this client at another host.
 */
final class FtpConnection implements Closeable {

    /** Where to connect and as whom. */
    record Endpoint(String scheme, String host, int port, String user) {
        boolean tls() {
            return scheme.equals("ftps");
        }
    }

    final FTPClient client;
    private final ControlReplies replies;
    /** Reads {@code LIST} lines, as {@code SYST} says the server writes them. */
    final FTPFileEntryParser listParser;
    /** Whether {@code LIST} takes {@code -a} (Unix servers: without it dot files are left out). */
    final boolean listAll;
    /**
     * MINA FtpServer, known by its {@code FEAT} line {@code MLST Size;Modify;Type;Perm}: its {@code
     * MLSD} leaves dot files out unless given {@code -a}, and lists a file or nothing for a path
     * that is no directory, where RFC 3659 wants an error.
     */
    final boolean minaMlsd;
    /**
     * False for servers known to store another name for one that begins or ends with a space:
     * MINA FtpServer trims its arguments, Pure-FTPd (known by its {@code sizd} MLST fact)
     * stores {@code "a "} as {@code "a_"}. Such names are refused there rather than renamed.
     */
    final boolean keepsEdgeSpaces;
    final boolean mlst;
    final boolean mfmt;
    final boolean rest;
    final boolean size;
    final boolean mdtm;
    final boolean utf8;
    private volatile long idleSince = System.nanoTime();
    /** The working directory a {@code CWD} left this connection in (one thread uses it at a time). */
    String cwd = "/";

    private FtpConnection(FTPClient client, ControlReplies replies, FTPFileEntryParser listParser, boolean listAll,
            boolean minaMlsd, boolean keepsEdgeSpaces, boolean mlst, boolean mfmt, boolean rest, boolean size,
            boolean mdtm, boolean utf8) {
        this.client = client;
        this.replies = replies;
        this.listParser = listParser;
        this.listAll = listAll;
        this.minaMlsd = minaMlsd;
        this.keepsEdgeSpaces = keepsEdgeSpaces;
        this.mlst = mlst;
        this.mfmt = mfmt;
        this.rest = rest;
        this.size = size;
        this.mdtm = mdtm;
        this.utf8 = utf8;
    }

    static FtpConnection open(Endpoint at, FtpOptions options) throws IOException {
        FTPClient client;
        if (at.tls()) {
            FTPSClient tls = options.sslContext().isPresent()
                    ? new DataClients.Tls(options.implicitTls(), options.sslContext().get())
                    : new DataClients.Tls(options.implicitTls());
            tls.setEndpointCheckingEnabled(true); // the certificate must name the host
            if (options.sslContext().isEmpty()) {
                // Commons Net's own default checks only the certificate's dates: trust what the JDK trusts
                tls.setTrustManager(jdkTrustManager());
            }
            client = tls;
        } else {
            client = new DataClients.Plain();
        }
        ControlReplies replies = new ControlReplies(wholeAnswerBound(options));
        client.setSocketFactory(replies);
        client.addProtocolCommandListener(replies);
        client.setConnectTimeout(millis(options.connectTimeout()));
        client.setDefaultTimeout(millis(options.readTimeout()));
        client.setDataTimeout(options.readTimeout());
        client.setControlKeepAliveTimeout(options.keepAlive());
        client.setControlKeepAliveReplyTimeout(options.readTimeout());
        client.setControlEncoding(options.charset().name());
        String where = at.scheme() + "://" + at.host() + ":" + at.port();
        try {
            client.connect(at.host(), at.port());
            // PASV answers name an address; a hostile or misconfigured server could name another host.
            // The name the user gave, not its address: a TLS data connection checks the certificate against it.
            client.setPassiveNatWorkaroundStrategy(named -> at.host());
            client.setSoTimeout(millis(options.readTimeout()));
            if (!FTPReply.isPositiveCompletion(client.getReplyCode())) {
                throw new FileSystemException(where, null, "the server refused the connection: " + reply(client));
            }
            String password = options.password().orElse(
                    at.user().equalsIgnoreCase("anonymous") || at.user().equalsIgnoreCase("ftp") ? "remotepath@" : "");
            if (!client.login(at.user(), password)) {
                throw new AccessDeniedException(where, null, "login as " + at.user() + " refused: " + reply(client));
            }
            if (client instanceof FTPSClient tls) {
                tls.execPBSZ(0);
                tls.execPROT("P");
            }
            if (!client.setFileType(FTP.BINARY_FILE_TYPE)) {
                throw new FileSystemException(where, null, "TYPE I refused: " + reply(client));
            }
            boolean utf8 = client.hasFeature("UTF8");
            if (utf8 && options.charset().equals(StandardCharsets.UTF_8)) {
                client.sendCommand("OPTS", "UTF8 ON"); // some servers want it, others answer 500 and speak UTF-8 anyway
            }
            if (options.passive()) {
                client.enterLocalPassiveMode();
            } else {
                client.enterLocalActiveMode();
            }
            String syst = "UNIX";
            if (FTPReply.isPositiveCompletion(client.sendCommand("SYST"))) {
                syst = client.getReplyString().substring(4).strip();
            }
            String key = listParserKey(syst);
            FTPClientConfig config = new FTPClientConfig(key);
            config.setServerTimeZoneId(options.listTimeZone().getId());
            FTPFileEntryParser parser = new DefaultFTPFileEntryParserFactory().createFileEntryParser(config);
            String[] mlstFacts = client.featureValues("MLST");
            boolean minaMlsd = mlstFacts != null && mlstFacts.length == 1 && mlstFacts[0].equals("Size;Modify;Type;Perm");
            boolean keepsEdgeSpaces = !minaMlsd && (mlstFacts == null || !String.join(";", mlstFacts).contains("sizd*"));
            return new FtpConnection(client, replies, parser, key.equals(FTPClientConfig.SYST_UNIX), minaMlsd,
                    keepsEdgeSpaces, client.hasFeature("MLST"), client.hasFeature("MFMT"), client.hasFeature("REST", "STREAM"),
                    client.hasFeature("SIZE"), client.hasFeature("MDTM"), utf8);
        } catch (IOException | RuntimeException e) {
            disconnect(client);
            if (e instanceof FileSystemException) {
                throw e;
            }
            if (e instanceof javax.net.ssl.SSLException) {
                throw (IOException) new FileSystemException(where, null, "TLS failed: " + e.getMessage()).initCause(e);
            }
            if (e instanceof java.net.UnknownHostException) {
                throw (IOException) new FileSystemException(where, null, "unknown host (the name does not resolve)")
                        .initCause(e);
            }
            throw (IOException) new FileSystemException(where, null, "FTP connection failed: " + describe(e)).initCause(e);
        }
    }

    /** {@code e}, and its root cause where Commons Net wrapped it (a bound's own words say more). */
    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? e.toString() : e + " (" + root + ")";
    }

    /** The JDK's default trust manager (its cacerts, or javax.net.ssl.trustStore). */
    private static javax.net.ssl.X509TrustManager jdkTrustManager() throws IOException {
        try {
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init((java.security.KeyStore) null);
            for (javax.net.ssl.TrustManager tm : tmf.getTrustManagers()) {
                if (tm instanceof javax.net.ssl.X509TrustManager x509) {
                    return x509;
                }
            }
            throw new IOException("the JDK has no X.509 trust manager");
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("the JDK's trust store cannot be read: " + e.getMessage(), e);
        }
    }

    /** The Commons Net parser for a {@code SYST} answer; Unix where it names none it knows. */
    private static String listParserKey(String syst) {
        String s = syst.toUpperCase(Locale.ROOT);
        for (String known : new String[] {FTPClientConfig.SYST_NT, FTPClientConfig.SYST_VMS, FTPClientConfig.SYST_OS2,
                FTPClientConfig.SYST_OS400, FTPClientConfig.SYST_MVS, FTPClientConfig.SYST_NETWARE,
                FTPClientConfig.SYST_MACOS_PETER, FTPClientConfig.SYST_UNIX}) {
            if (s.contains(known)) {
                return known;
            }
        }
        return FTPClientConfig.SYST_UNIX;
    }

    /** The longest a whole reply or listing may take, however steadily it trickles: ten read timeouts. */
    static java.time.Duration wholeAnswerBound(FtpOptions options) {
        return Timeouts.times(options.readTimeout(), 10);
    }

    private static int millis(java.time.Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
    }

    /** The last reply, for messages: its code and first line, cut short and without control characters. */
    static String reply(FTPClient client) {
        String r = client.getReplyString();
        if (r == null) {
            return "(no reply)";
        }
        r = r.strip().lines().findFirst().orElse("");
        StringBuilder sb = new StringBuilder();
        r.codePoints().limit(200).forEach(cp -> sb.appendCodePoint(Character.isISOControl(cp) ? '?' : cp));
        return sb.toString();
    }

    /** Opens the data connection of {@code command arg} (RETR, MLSD, LIST); null where refused. */
    java.io.InputStream openData(String command, String arg) throws IOException {
        return ((DataClients.DataOpener) client).openData(command, arg);
    }

    /**
     * Waits for the final reply of the transfer now ending, within a fresh reply bound (the
     * transfer itself may have taken longer than one): whether it was positive.
     */
    boolean completeTransfer() throws IOException {
        replies.expect();
        return client.completePendingCommand();
    }

    /**
     * Ends an upload's data connection. Over TLS, the close is announced first ({@code
     * close_notify}) and what the server has sent meanwhile is read: a TLS 1.3 server's
     * session tickets, left unread, turn the socket's close into a reset, and vsftpd then
     * fails the upload ("426 Failure reading network stream") though every byte was sent.
     * The tickets come right after the handshake; the read waits 50 ms at most for them or the
     * server's own close (ProFTPD waits for the client's close instead, and every upload would
     * pay the wait).
     */
    void endUpload(java.io.OutputStream data) throws IOException {
        data.flush();
        java.net.Socket s = ((DataClients.DataOpener) client).lastDataSocket();
        if (s instanceof javax.net.ssl.SSLSocket && !s.isClosed()) {
            try {
                s.shutdownOutput();
                s.setSoTimeout(50);
                java.io.InputStream in = s.getInputStream();
                byte[] rest = new byte[4096];
                while (in.read(rest) >= 0) {
                    // discarded: nothing but TLS records is owed on an upload's connection
                }
            } catch (IOException ignored) {
                // read what was there; the server closed, or waits for us: the transfer's final reply decides
            }
        }
        data.close();
    }

    /** Since when the connection has been idle ({@link System#nanoTime()}). */
    long idleSince() {
        return idleSince;
    }

    void markIdle() {
        idleSince = System.nanoTime();
    }

    /** Whether the server still answers ({@code NOOP}). */
    boolean alive() {
        try {
            return client.isConnected() && FTPReply.isPositiveCompletion(client.sendNoOp() ? 200 : 500);
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            if (client.isConnected()) {
                client.setSoTimeout(1000);
                client.logout();
            }
        } catch (IOException | RuntimeException ignored) {
            // closing anyway
        }
        disconnect(client);
    }

    /** Drops the connection at once, without QUIT: after a broken or abandoned transfer. */
    void drop() {
        disconnect(client);
    }

    private static void disconnect(FTPClient client) {
        try {
            client.disconnect();
        } catch (IOException | RuntimeException ignored) {
            // nothing more to do
        }
    }
}
