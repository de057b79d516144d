package dev.remotepath.sftp;

import com.hierynomus.sshj.transport.cipher.GcmCipher;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Provider;
import java.security.Security;
import java.util.ArrayList;
import java.util.List;
import net.schmizz.sshj.common.Factory;
import net.schmizz.sshj.transport.cipher.Cipher;

/**
 * sshj's {@code aes128-gcm@openssh.com} and {@code aes256-gcm@openssh.com}, run by the JDK's
 * own AES/GCM. Whenever BouncyCastle is on the class path (sshj depends on it), sshj asks it,
 * by name, for every cipher, and BouncyCastle's ciphers are plain Java: its ChaCha20 held sshj
 * to ~110 MB/s on a 256 MiB read, its GCM to less. The JDK's GCM uses the CPU's AES and
 * carry-less multiply instructions. Framing, nonces and tags stay sshj's ({@link GcmCipher});
 * only the {@code javax.crypto.Cipher} behind it changes.
 */
final class SshjJdkGcm extends GcmCipher {

    private static final String TRANSFORMATION = "AES/GCM/NoPadding";

    private final Provider jdk;

    private SshjJdkGcm(int keyBytes, Provider jdk) {
        super(12, 16, keyBytes, "AES", TRANSFORMATION);
        this.jdk = jdk;
    }

    @Override
    protected void initCipher(javax.crypto.Cipher fromSshj, Mode mode, byte[] key, byte[] iv)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        try {
            cipher = javax.crypto.Cipher.getInstance(TRANSFORMATION, jdk);
        } catch (GeneralSecurityException e) {
            throw new InvalidAlgorithmParameterException("the JDK's " + TRANSFORMATION + " is unavailable", e);
        }
        super.initCipher(cipher, mode, key, iv);
    }

    /**
     * {@code defaults} with the JDK-backed AES-GCM pair first, so that it is what a server that
     * offers it (OpenSSH does) agrees on; unchanged when the JDK has no SunJCE provider.
     */
    static List<Factory.Named<Cipher>> first(List<Factory.Named<Cipher>> defaults) {
        Provider jdk = Security.getProvider("SunJCE");
        if (jdk == null) {
            return defaults;
        }
        List<Factory.Named<Cipher>> ordered = new ArrayList<>();
        ordered.add(factory("aes128-gcm@openssh.com", 16, jdk));
        ordered.add(factory("aes256-gcm@openssh.com", 32, jdk));
        for (Factory.Named<Cipher> f : defaults) {
            if (!f.getName().endsWith("-gcm@openssh.com")) {
                ordered.add(f);
            }
        }
        return ordered;
    }

    private static Factory.Named<Cipher> factory(String name, int keyBytes, Provider jdk) {
        return new Factory.Named<>() {
            @Override
            public Cipher create() {
                return new SshjJdkGcm(keyBytes, jdk);
            }

            @Override
            public String getName() {
                return name;
            }
        };
    }
}
