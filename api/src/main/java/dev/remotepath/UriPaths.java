package dev.remotepath;

import java.nio.charset.StandardCharsets;

/** Percent-encoding of path strings into URI paths (RFC 3986), shared by every backend. */
public final class UriPaths {

    private UriPaths() {
    }

    private static final boolean[] SAFE = new boolean[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) SAFE[c] = true;
        for (char c = 'A'; c <= 'Z'; c++) SAFE[c] = true;
        for (char c = '0'; c <= '9'; c++) SAFE[c] = true;
        // ';' is legal in RFC 3986 paths but Jetty, Tomcat and others read it as a path-parameter
        // delimiter, so it is always encoded.
        for (char c : "-._~!$&'()*+,=:@/".toCharArray()) SAFE[c] = true;
    }

    /**
     * Encodes a decoded path so that every character other than RFC 3986 pchar and '/' is %XX
     * of its UTF-8 bytes; escaped raw bytes ({@link NameBytes}) become %XX of the byte itself.
     */
    public static String encodePath(String path) {
        int i = 0;
        while (i < path.length() && path.charAt(i) < 128 && SAFE[path.charAt(i)]) {
            i++;
        }
        if (i == path.length()) {
            return path;
        }
        StringBuilder sb = new StringBuilder(path.length() + 16).append(path, 0, i);
        for (byte b : NameBytes.encode(path.substring(i))) {
            int c = b & 0xff;
            if (c < 128 && SAFE[c]) {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
            }
        }
        return sb.toString();
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /**
     * Decodes %XX escapes exactly ('+' stays '+'); bytes that are not UTF-8 are kept
     * losslessly as {@link NameBytes} escapes.
     *
     * @throws IllegalArgumentException on a malformed or truncated escape
     */
    public static String decode(String encoded) {
        if (encoded.indexOf('%') < 0) {
            return encoded;
        }
        byte[] raw = encoded.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[raw.length];
        int n = 0;
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '%') {
                if (i + 2 >= raw.length) {
                    throw new IllegalArgumentException("truncated percent escape in '" + encoded + "'");
                }
                int hi = Character.digit(raw[i + 1], 16);
                int lo = Character.digit(raw[i + 2], 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("malformed percent escape in '" + encoded + "'");
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                out[n++] = raw[i];
            }
        }
        return NameBytes.decode(out, 0, n);
    }

    /**
     * The host of a URI that must name one, IPv6 brackets removed ({@code [::1]} is {@code ::1}
     * to a socket), with errors in a user's terms: no host, a port that is not a number, a port
     * out of range.
     *
     * @param usage how the scheme's URIs look, for the message ({@code sftp://[user@]host[:port]/path})
     * @throws java.nio.file.InvalidPathException naming the URI and what is wrong with it
     */
    public static String hostOf(java.net.URI uri, String usage) {
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            String authority = uri.getRawAuthority();
            if (authority != null) {
                String hostPort = authority.substring(authority.lastIndexOf('@') + 1);
                int colon = hostPort.lastIndexOf(':');
                if (colon > 0 && !hostPort.endsWith("]") && hostPort.substring(colon + 1).chars().anyMatch(c -> c < '0' || c > '9')) {
                    throw new java.nio.file.InvalidPathException(uri.toString(), "'" + hostPort.substring(colon + 1)
                            + "' is not a port number: " + usage);
                }
                throw new java.nio.file.InvalidPathException(uri.toString(), "'" + hostPort + "' is not a host name: " + usage);
            }
            throw new java.nio.file.InvalidPathException(uri.toString(), "the URI names no host: " + usage);
        }
        portOf(uri, 1, usage);
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** The URI's port, or {@code defaultPort} when it gives none; 1-65535 or an InvalidPathException. */
    public static int portOf(java.net.URI uri, int defaultPort, String usage) {
        int port = uri.getPort();
        if (port == -1) {
            return defaultPort;
        }
        if (port < 1 || port > 65535) {
            throw new java.nio.file.InvalidPathException(uri.toString(), "port " + port + " is out of range (1-65535): " + usage);
        }
        return port;
    }
}
