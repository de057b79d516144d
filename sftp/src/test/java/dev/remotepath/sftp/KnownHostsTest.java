package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** known_hosts read as OpenSSH reads it (sshd(8), SSH_KNOWN_HOSTS FILE FORMAT). */
class KnownHostsTest {

    @TempDir
    Path temp;

    private static final byte[] KEY = "the server's key".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OTHER = "another key".getBytes(StandardCharsets.UTF_8);

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private KnownHosts file(String... lines) throws Exception {
        return KnownHosts.read(Files.writeString(temp.resolve("known_hosts"), String.join("\n", lines) + "\n"));
    }

    @Test
    void plainWildcardNegatedAndPortedNames() throws Exception {
        KnownHosts k = file("# comment", "", "files.example.org,10.0.0.1 ssh-ed25519 " + b64(KEY),
                "*.internal,!bad.internal ssh-ed25519 " + b64(KEY), "[127.0.0.1]:2222 ssh-ed25519 " + b64(KEY),
                "garbage", "@cert-authority *.ca ssh-ed25519 " + b64(KEY));
        assertThat(k.check("files.example.org", 22, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.KNOWN);
        assertThat(k.check("FILES.example.org", 22, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.KNOWN);
        assertThat(k.check("a.internal", 22, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.KNOWN);
        assertThat(k.check("bad.internal", 22, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.UNKNOWN);
        assertThat(k.check("127.0.0.1", 2222, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.KNOWN);
        assertThat(k.check("127.0.0.1", 22, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.UNKNOWN);
        assertThat(k.check("x.ca", 22, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.UNKNOWN);
    }

    @Test
    void aDifferentKeyForAMatchingLineIsChangedEvenThroughAWildcard() throws Exception {
        KnownHosts k = file("* ssh-ed25519 " + b64(OTHER));
        KnownHosts.Decision d = k.check("new.example.org", 22, "ssh-ed25519", KEY);
        assertThat(d.verdict()).isEqualTo(KnownHosts.Verdict.CHANGED);
        assertThat(d.expectedFingerprint()).isEqualTo(KnownHosts.fingerprint(OTHER));
        // Known only under another key type: changed too, never silently accepted.
        assertThat(file("h ecdsa-sha2-nistp256 " + b64(OTHER)).check("h", 22, "ssh-ed25519", KEY).verdict())
                .isEqualTo(KnownHosts.Verdict.CHANGED);
    }

    @Test
    void aRevokedKeyIsRefusedBesideAValidLine() throws Exception {
        KnownHosts k = file("h ssh-ed25519 " + b64(KEY), "@revoked * ssh-ed25519 " + b64(KEY));
        assertThat(k.check("h", 22, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.REVOKED);
        assertThat(k.check("other", 22, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.REVOKED);
    }

    @Test
    void hashedNamesMatch() throws Exception {
        byte[] salt = "0123456789abcdefghij".getBytes(StandardCharsets.UTF_8);
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(salt, "HmacSHA1"));
        String hashed = "|1|" + b64(salt) + "|" + b64(mac.doFinal("[h.example]:2200".getBytes(StandardCharsets.UTF_8)));
        KnownHosts k = file(hashed + " ssh-ed25519 " + b64(KEY));
        assertThat(k.check("h.example", 2200, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.KNOWN);
        assertThat(k.check("h.example", 22, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.UNKNOWN);
    }

    @Test
    void aMissingFileKnowsNothingAndNewKeysAreAppended() throws Exception {
        Path f = temp.resolve("sub/known_hosts");
        KnownHosts k = KnownHosts.read(f);
        assertThat(k.check("h", 2222, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.UNKNOWN);
        k.add("h", 2222, "ssh-ed25519", KEY);
        assertThat(Files.readString(f)).isEqualTo("[h]:2222 ssh-ed25519 " + b64(KEY) + "\n");
        assertThat(KnownHosts.read(f).check("h", 2222, "ssh-ed25519", KEY).verdict()).isEqualTo(KnownHosts.Verdict.KNOWN);
    }
}
