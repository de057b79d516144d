package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The whole contract (MINA client) against gesftpserver, Green End's SFTP server, run as
 * OpenSSH's subsystem. It reads SSH_FXP_SYMLINK's paths in the draft's order, the reverse of
 * OpenSSH's: links must still land exactly where they are asked for.
 */
class GesftpserverContractTest extends OpenSshContractTest {

    static final String GESFTPSERVER = "/usr/libexec/gesftpserver";

    @Override
    String subsystem() {
        return GESFTPSERVER;
    }

    @Override
    boolean hasCopyData() {
        return false;
    }

    @Test
    void linksLandWhereAskedThoughTheServerTakesTheDraftsOrder() throws Exception {
        
        RemotePath link = dir.resolve("sub/link");
        dir.resolve("sub").createDirectory();
        link.createSymbolicLink("../elsewhere");
        assertThat(Files.isSymbolicLink(local.resolve("sub/link"))).isTrue();
        assertThat(Files.readSymbolicLink(local.resolve("sub/link")).toString()).isEqualTo("../elsewhere");
        assertThat(link.readSymbolicLink()).isEqualTo("../elsewhere");
        // Nothing was left where the wrong order would have put it, nor any probe.
        assertThat(Files.exists(local.resolve("elsewhere"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
        try (var names = Files.list(local.resolve("sub"))) {
            assertThat(names.map(p -> p.getFileName().toString())).containsExactly("link");
        }
    }
}
