package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.common.NamedResource;
import org.junit.jupiter.api.Test;

/** MINA's key exchanges as RemotePath offers them: sntrup761 behind X25519, nothing dropped (as sshj's order). */
class KeyExchangeOrderTest {

    @Test
    void sntrupComesRightAfterX25519() {
        List<String> defaults = SshClient.setUpDefaultClient().getKeyExchangeFactories().stream()
                .map(NamedResource::getName).toList();
        List<String> ordered = MinaWire.sntrupAfterX25519(SshClient.setUpDefaultClient().getKeyExchangeFactories())
                .stream().map(NamedResource::getName).toList();
        assertThat(ordered).containsExactlyInAnyOrderElementsOf(defaults);
        int lastX25519 = -1;
        int firstSntrup = Integer.MAX_VALUE;
        for (int i = 0; i < ordered.size(); i++) {
            if (ordered.get(i).startsWith("curve25519")) {
                lastX25519 = i;
            }
            if (ordered.get(i).startsWith("sntrup")) {
                firstSntrup = Math.min(firstSntrup, i);
            }
        }
        assertThat(lastX25519).isNotNegative();
        assertThat(firstSntrup).isEqualTo(lastX25519 + 1);
        assertThat(ordered.getFirst()).startsWith("curve25519");
        assertThat(defaults.indexOf(ordered.get(firstSntrup))).as("MINA's own order put it first")
                .isLessThan(defaults.indexOf(ordered.get(lastX25519)));
    }

    @Test
    void anOpenSshServerWithoutMlKemNegotiatesX25519() throws Exception {
        // Exercised end to end by the OpenSSH contract runs; here the order alone decides:
        // OpenSSH 9.2 offers sntrup761x25519-sha512@openssh.com, curve25519-sha256, ecdh...
        List<String> server = List.of("sntrup761x25519-sha512@openssh.com", "curve25519-sha256",
                "curve25519-sha256@libssh.org", "ecdh-sha2-nistp256");
        String chosen = MinaWire.sntrupAfterX25519(SshClient.setUpDefaultClient().getKeyExchangeFactories())
                .stream().map(NamedResource::getName).filter(server::contains).findFirst().orElseThrow();
        assertThat(chosen).isEqualTo("curve25519-sha256");
    }
}
