package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hierynomus.sshj.transport.cipher.GcmCiphers;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.schmizz.sshj.DefaultConfig;
import net.schmizz.sshj.common.Factory;
import net.schmizz.sshj.common.SSHRuntimeException;
import net.schmizz.sshj.transport.cipher.Cipher;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JDK-backed AES-GCM that sshj negotiates first must frame packets exactly as sshj's own
 * GcmCipher does (same ciphertext and tag for the same key, nonce and packets), decrypt what
 * it encrypts, and refuse a packet whose tag does not match.
 */
class SshjJdkGcmTest {

    private static Cipher ours(String name) {
        List<Factory.Named<Cipher>> ciphers = SshjJdkGcm.first(new DefaultConfig().getCipherFactories());
        assertThat(ciphers.get(0).getName()).isEqualTo("aes128-gcm@openssh.com");
        assertThat(ciphers.get(1).getName()).isEqualTo("aes256-gcm@openssh.com");
        assertThat(ciphers.stream().filter(f -> f.getName().equals(name)).count()).as("listed once").isEqualTo(1);
        Cipher c = ciphers.stream().filter(f -> f.getName().equals(name)).findFirst().orElseThrow().create();
        assertThat(c).isInstanceOf(SshjJdkGcm.class);
        return c;
    }

    /** A packet as sshj's encoder lays it out: 4 length bytes (the AAD), the payload, room for the tag. */
    private static byte[] packet(Random r, int payload) {
        byte[] p = new byte[4 + payload + 16];
        p[0] = (byte) (payload >>> 24);
        p[1] = (byte) (payload >>> 16);
        p[2] = (byte) (payload >>> 8);
        p[3] = (byte) payload;
        for (int i = 4; i < 4 + payload; i++) {
            p[i] = (byte) r.nextInt();
        }
        return p;
    }

    private static void seal(Cipher c, byte[] p) {
        c.updateAAD(p, 0, 4);
        c.update(p, 4, p.length - 20);
    }

    private static void open(Cipher c, byte[] p) {
        c.updateAAD(p, 0, 4);
        c.update(p, 4, p.length - 20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"aes128-gcm@openssh.com", "aes256-gcm@openssh.com"})
    void sameFramingAsSshjsOwnAndRoundTrips(String name) {
        Random r = new Random(name.hashCode());
        int keyBytes = name.startsWith("aes128") ? 16 : 32;
        byte[] key = new byte[keyBytes];
        byte[] iv = new byte[12];
        r.nextBytes(key);
        r.nextBytes(iv);
        Cipher stock = (keyBytes == 16 ? GcmCiphers.AES128GCM() : GcmCiphers.AES256GCM()).create();
        Cipher jdk = ours(name);
        Cipher reader = ours(name);
        stock.init(Cipher.Mode.Encrypt, key, iv);
        jdk.init(Cipher.Mode.Encrypt, key, iv);
        reader.init(Cipher.Mode.Decrypt, key, iv);
        for (int size : new int[] {16, 32768 + 48, 5, 262144}) {
            byte[] plain = packet(r, size);
            byte[] a = plain.clone();
            byte[] b = plain.clone();
            seal(stock, a);
            seal(jdk, b);
            assertThat(b).as("ciphertext and tag of a %d-byte packet", size).isEqualTo(a);
            assertThat(Arrays.equals(b, 4, 4 + size, plain, 4, 4 + size)).isFalse();
            open(reader, b);
            assertThat(Arrays.copyOfRange(b, 4, 4 + size)).isEqualTo(Arrays.copyOfRange(plain, 4, 4 + size));
        }
        byte[] forged = packet(r, 64);
        seal(jdk, forged);
        forged[10] ^= 1;
        assertThatThrownBy(() -> open(reader, forged)).isInstanceOf(SSHRuntimeException.class);
    }
}
