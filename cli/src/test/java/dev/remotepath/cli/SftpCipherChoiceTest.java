package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.sftp.SftpOptions;
import org.junit.jupiter.api.Test;

/**
 * The SSH ciphers the command offers follow the compilers bin/rpath chose: on C1 ChaCha20-Poly1305
 * first (the client's others after it), otherwise the library's default (AES-GCM first).
 */
class SftpCipherChoiceTest {

    @Test
    void onC1ChaChaIsOfferedFirstAndTheRestAfterIt() {
        System.setProperty(Paths.JIT_PROPERTY, "c1");
        try {
            SftpOptions o = Paths.sftpOptions(new Rpath(java.io.OutputStream.nullOutputStream(), java.io.OutputStream.nullOutputStream()));
            assertThat(o.ciphers()).containsExactly("chacha20-poly1305@openssh.com");
            assertThat(o.otherCiphers()).as("a server without it still connects").isTrue();
        } finally {
            System.clearProperty(Paths.JIT_PROPERTY);
        }
    }

    @Test
    void onC2OrWithoutTheLauncherTheDefaultsStand() {
        assertThat(Paths.sftpOptions(new Rpath(java.io.OutputStream.nullOutputStream(), java.io.OutputStream.nullOutputStream())).ciphers()).isEmpty();
        System.setProperty(Paths.JIT_PROPERTY, "c2");
        try {
            assertThat(Paths.sftpOptions(new Rpath(java.io.OutputStream.nullOutputStream(), java.io.OutputStream.nullOutputStream())).ciphers()).isEmpty();
        } finally {
            System.clearProperty(Paths.JIT_PROPERTY);
        }
    }
}
