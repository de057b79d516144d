package dev.remotepath.sftp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * An OpenSSH {@code known_hosts} file, read and decided on once for both SSH clients, so that
 * MINA and sshj accept and refuse exactly the same keys, as OpenSSH does (sshd(8) "SSH_KNOWN_HOSTS
 * FILE FORMAT"): comma-separated host patterns with {@code *} and {@code ?}, negation with
 * {@code !}, {@code [host]:port} for other ports, hashed names ({@code |1|salt|hash}), and the
 * {@code @revoked} marker, whose key is refused for every host whatever other lines say.
 * {@code @cert-authority} lines are not host keys and are skipped.
 */
final class KnownHosts {

    /** What known_hosts says of a server's key. */
    enum Verdict {
        /** A line for this host holds this key. */
        KNOWN,
        /** No line names this host. */
        UNKNOWN,
        /** Lines name this host, none with this key: possibly a man-in-the-middle. */
        CHANGED,
        /** An {@code @revoked} line holds this key. */
        REVOKED
    }

    /** A verdict, and for CHANGED the fingerprint of a key the file expects. */
    record Decision(Verdict verdict, String expectedFingerprint) {
    }

    private record Line(boolean revoked, String[] patterns, String keyType, byte[] key) {
    }

    private final Path file;
    private final List<Line> lines;

    private KnownHosts(Path file, List<Line> lines) {
        this.file = file;
        this.lines = lines;
    }

    /** Reads {@code file}; a missing file knows no host. Malformed lines are skipped, as OpenSSH does. */
    static KnownHosts read(Path file) throws IOException {
        List<Line> out = new ArrayList<>();
        List<String> text;
        try {
            text = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException absent) {
            text = List.of();
        }
        for (String raw : text) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\s+");
            int i = 0;
            boolean revoked = false;
            if (f[0].startsWith("@")) {
                if (f[0].equals("@revoked")) {
                    revoked = true;
                } else {
                    continue; // @cert-authority: a CA, not a host key
                }
                i = 1;
            }
            if (f.length < i + 3) {
                continue;
            }
            try {
                out.add(new Line(revoked, f[i].split(","), f[i + 1], Base64.getDecoder().decode(f[i + 2])));
            } catch (IllegalArgumentException malformed) {
                // not base64: skipped
            }
        }
        return new KnownHosts(file, out);
    }

    /**
     * The one host-key decision both clients make, as OpenSSH makes it: a revoked key is refused,
     * a known key accepted, a changed one refused, an unknown one refused or (ACCEPT_NEW)
     * recorded and accepted. A refusal's reason goes to {@code problem} for the connection error.
     */
    static boolean accept(SftpOptions options, String host, int port, String keyType, byte[] key,
            java.util.concurrent.atomic.AtomicReference<String> problem) {
        if (options.hostKeyPolicy() == SftpOptions.HostKeyPolicy.ACCEPT_ALL) {
            return true;
        }
        Path file = options.knownHosts();
        try {
            KnownHosts known = read(file);
            Decision d = known.check(host, port, keyType, key);
            switch (d.verdict()) {
                case KNOWN -> {
                    return true;
                }
                case REVOKED -> problem.set(SftpEndpoint.revokedKey(file, keyType, fingerprint(key)));
                case CHANGED -> problem.set(SftpEndpoint.changedKey(file, d.expectedFingerprint(), fingerprint(key)));
                case UNKNOWN -> {
                    if (options.hostKeyPolicy() == SftpOptions.HostKeyPolicy.ACCEPT_NEW) {
                        known.add(host, port, keyType, key);
                        return true;
                    }
                    problem.set(SftpEndpoint.unknownKey(keyType, fingerprint(key), file));
                }
            }
        } catch (IOException e) {
            problem.set("cannot read or update " + file + ": " + e.getMessage());
        }
        return false;
    }

    /** The name known_hosts files use for a host and port: {@code host}, or {@code [host]:port} off port 22. */
    static String nameOf(String host, int port) {
        return port == 22 ? host : "[" + host + "]:" + port;
    }

    /** Decides on the key {@code (keyType, key)} that {@code host:port} presented. */
    Decision check(String host, int port, String keyType, byte[] key) {
        for (Line l : lines) {
            if (l.revoked && Arrays.equals(l.key, key)) {
                return new Decision(Verdict.REVOKED, null);
            }
        }
        String name = nameOf(host, port);
        Line sameType = null;
        Line any = null;
        for (Line l : lines) {
            if (l.revoked || !matches(l.patterns, name)) {
                continue;
            }
            if (Arrays.equals(l.key, key)) {
                return new Decision(Verdict.KNOWN, null);
            }
            if (l.keyType.equals(keyType) && sameType == null) {
                sameType = l;
            }
            if (any == null) {
                any = l;
            }
        }
        // A host known only under a key of another type has changed its key too (MINA's view,
        // and OpenSSH's for the key type it negotiated): never accepted silently.
        Line expected = sameType != null ? sameType : any;
        return expected == null ? new Decision(Verdict.UNKNOWN, null)
                : new Decision(Verdict.CHANGED, fingerprint(expected.key));
    }

    /** The key types known for a host (for the client's algorithm preference). */
    List<String> keyTypesOf(String host, int port) {
        String name = nameOf(host, port);
        List<String> types = new ArrayList<>();
        for (Line l : lines) {
            if (!l.revoked && matches(l.patterns, name) && !types.contains(l.keyType)) {
                types.add(l.keyType);
            }
        }
        return types;
    }

    /** Appends a line for a newly accepted host key (HostKeyPolicy.ACCEPT_NEW). */
    void add(String host, int port, String keyType, byte[] key) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        String line = nameOf(host, port) + " " + keyType + " " + Base64.getEncoder().encodeToString(key) + "\n";
        Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        lines.add(new Line(false, new String[] {nameOf(host, port)}, keyType, key));
    }

    /** OpenSSH's {@code SHA256:...} fingerprint of a key blob. */
    static String fingerprint(byte[] key) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(key);
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(d);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /** A host line applies when one of its patterns matches and none of its negated ones does. */
    static boolean matches(String[] patterns, String name) {
        boolean positive = false;
        for (String p : patterns) {
            if (p.startsWith("!")) {
                if (matchesOne(p.substring(1), name)) {
                    return false;
                }
            } else if (matchesOne(p, name)) {
                positive = true;
            }
        }
        return positive;
    }

    private static boolean matchesOne(String pattern, String name) {
        if (pattern.startsWith("|1|")) {
            return hashedMatches(pattern, name);
        }
        return wildcard(pattern.toLowerCase(java.util.Locale.ROOT), 0, name.toLowerCase(java.util.Locale.ROOT), 0);
    }

    /** {@code |1|base64(salt)|base64(HMAC-SHA1(salt, name))}, as ssh-keygen -H writes. */
    private static boolean hashedMatches(String pattern, String name) {
        String[] parts = pattern.split("\\|");
        if (parts.length != 4) {
            return false;
        }
        try {
            byte[] salt = Base64.getDecoder().decode(parts[2]);
            byte[] hash = Base64.getDecoder().decode(parts[3]);
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(salt, "HmacSHA1"));
            return MessageDigest.isEqual(hash, mac.doFinal(name.getBytes(StandardCharsets.UTF_8)));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return false;
        }
    }

    /** {@code *} and {@code ?} over a host name, greedy with backtracking to the last star (linear). */
    private static boolean wildcard(String p, int pi, String s, int si) {
        int star = -1;
        int mark = 0;
        while (si < s.length()) {
            if (pi < p.length() && (p.charAt(pi) == '?' || p.charAt(pi) == s.charAt(si))) {
                pi++;
                si++;
            } else if (pi < p.length() && p.charAt(pi) == '*') {
                star = pi++;
                mark = si;
            } else if (star >= 0) {
                pi = star + 1;
                si = ++mark;
            } else {
                return false;
            }
        }
        while (pi < p.length() && p.charAt(pi) == '*') {
            pi++;
        }
        return pi == p.length();
    }
}
