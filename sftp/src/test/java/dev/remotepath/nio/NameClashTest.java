package dev.remotepath.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.spi.FileSystemProvider;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Another library's provider for one of our schemes (MINA's sftp here) never takes RemoteNio's paths. */
class NameClashTest {

    @Test
    void theJdkInstallsOneProviderPerScheme_andRemoteNioGivesOursEvenWhenAnotherWon() throws Exception {
        // sshd-sftp is on this class path with its own "sftp" provider; the JDK keeps the first it
        // finds and drops the other, so exactly one is installed, whichever came first.
        List<FileSystemProvider> sftp = FileSystemProvider.installedProviders().stream()
                .filter(p -> p.getScheme().equalsIgnoreCase("sftp")).toList();
        assertThat(sftp).hasSize(1);
        assertThat(RemoteNio.provider("sftp")).isInstanceOf(RemoteNioProvider.Sftp.class);
        assertThat(RemoteNio.provider("SFTP")).isSameAs(RemoteNio.provider("sftp"));

        // Where another library's provider won a scheme, RemoteNio makes ours and its paths work.
        List<FileSystemProvider> othersWon = FileSystemProvider.installedProviders().stream()
                .filter(p -> !(p instanceof RemoteNioProvider)).toList();
        RemoteNioProvider standalone = RemoteNio.provider("mem", othersWon);
        assertThat(standalone).isInstanceOf(RemoteNioProvider.Mem.class).isNotSameAs(RemoteNio.provider("mem"));
        assertThat(RemoteNio.provider("mem", othersWon)).isSameAs(standalone);
        Path p = standalone.getPath(URI.create("mem://standalone-" + UUID.randomUUID() + "/x.txt"));
        Files.writeString(p, "works");
        assertThat(Files.readString(p)).isEqualTo("works");
        assertThat(p.getFileSystem().provider()).isSameAs(standalone);
        assertThatThrownBy(() -> RemoteNio.provider("gopher")).isInstanceOf(ProviderNotFoundException.class);
    }

    @Test
    void aRemotePathBecomesAnNioPathOfTheSameFile() throws Exception {
        RemotePath file = RemotePaths.get(URI.create("mem://clash-" + UUID.randomUUID() + "/a.txt")).writeString("alpha");
        Path nio = RemoteNio.of(file);
        assertThat(nio.getFileSystem().provider()).isInstanceOf(RemoteNioProvider.Mem.class);
        assertThat(Files.readString(nio)).isEqualTo("alpha");
        assertThat(nio.toUri()).isEqualTo(file.toUri());
        // The same backend file system, not one opened again with default options.
        assertThat(((RemoteNioPath) nio).remote().fileSystem()).isSameAs(file.fileSystem());
    }
}
