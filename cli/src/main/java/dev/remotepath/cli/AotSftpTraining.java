package dev.remotepath.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import java.util.Random;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * The SFTP part of {@link AotTraining}: the same commands against an in-process SSH server on
 * 127.0.0.1 (MINA's, which the backends jar carries), with both clients, so that the AOT cache
 * holds the SSH and crypto classes an SFTP command loads and the profiles of its hot loops
 * (C2 then compiles the cipher's callers sooner). A 32 MiB file goes each way.
 */
final class AotSftpTraining {

    private AotSftpTraining() {
    }

    static void run(Path work, OutputStream sink, Path local) throws Exception {
        Path root = Files.createDirectories(work.resolve("sftp-root"));
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair host = g.generateKeyPair();
        KeyPair user = g.generateKeyPair();
        SshServer server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(KeyPairProvider.wrap(host));
        server.setPublickeyAuthenticator((name, key, session) -> KeyUtils.compareKeys(key, user.getPublic()));
        server.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
        server.setFileSystemFactory(new VirtualFileSystemFactory(root));
        org.apache.sshd.core.CoreModuleProperties.TCP_NODELAY.set(server, true);
        server.start();
        try {
            Path identity = work.resolve("id_training");
            try (OutputStream out = Files.newOutputStream(identity)) {
                OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(user, "training", null, out);
            }
            Path knownHosts = work.resolve("known_hosts");
            Files.writeString(knownHosts, "[127.0.0.1]:" + server.getPort() + " " + PublicKeyEntry.toString(host.getPublic()) + "\n");
            Path big = work.resolve("big.bin");
            byte[] block = new byte[1 << 20];
            new Random(1).nextBytes(block);
            try (OutputStream out = Files.newOutputStream(big)) {
                for (int i = 0; i < 32; i++) {
                    out.write(block);
                }
            }
            String base = "sftp://training@127.0.0.1:" + server.getPort() + "/";
            for (String client : List.of("mina", "sshj")) {
                String[] ssh = {"--identity=" + identity, "--known-hosts=" + knownHosts, "--sftp-client=" + client};
                String dir = base + client;
                // as bin/rpath runs a tree of small files: on C1, so ChaCha20-Poly1305 (Paths.sftpOptions)
                System.setProperty(Paths.JIT_PROPERTY, Paths.LAUNCHED_ON_C1);
                try {
                    run(sink, ssh, "sync", local.toString(), dir + "/tree", "--json");
                } finally {
                    System.clearProperty(Paths.JIT_PROPERTY);
                }
                run(sink, ssh, "sync", local.toString(), dir + "/tree");
                run(sink, ssh, "ls", "-l", dir + "/tree");
                run(sink, ssh, "ls", "--json", "-R", dir + "/tree/dir0");
                run(sink, ssh, "stat", "--json", dir + "/tree/dir0/file0.txt");
                run(sink, ssh, "cp", big.toString(), dir + "/big.bin");
                run(sink, ssh, "cp", dir + "/big.bin", work.resolve("big-" + client + ".bin").toString());
                run(sink, ssh, "checksum", dir + "/tree/dir0/file0.txt");
                run(sink, ssh, "rm", "-r", dir);
            }
        } finally {
            server.stop(true);
        }
    }

    private static void run(OutputStream sink, String[] ssh, String... args) throws IOException {
        String[] all = new String[ssh.length + args.length];
        System.arraycopy(ssh, 0, all, 0, ssh.length);
        System.arraycopy(args, 0, all, ssh.length, args.length);
        AotTraining.run(sink, all);
    }
}
