package dev.remotepath.mem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.InvalidPathException;
import java.nio.file.ProviderNotFoundException;
import org.junit.jupiter.api.Test;

/** What is particular to mem: volumes, their lifetime, and its URIs. */
class MemFileSystemTest {

    @Test
    void sameVolumeNameGivesSameFileSystem() throws Exception {
        RemotePath a = RemotePaths.get("mem://shared-vol/a");
        RemotePath b = RemotePaths.get("mem://shared-vol/b");
        assertThat(a.fileSystem()).isSameAs(b.fileSystem());
        a.writeString("visible");
        assertThat(RemotePaths.get("mem://shared-vol/a").readString()).isEqualTo("visible");
        a.fileSystem().close();
    }

    @Test
    void closedVolumeFailsAndNameStartsAfresh() throws Exception {
        RemotePath a = RemotePaths.get("mem://closing-vol/a").writeString("x");
        a.fileSystem().close();
        assertThat(a.fileSystem().isOpen()).isFalse();
        assertThatThrownBy(a::readString).isInstanceOf(ClosedFileSystemException.class);
        RemotePath fresh = RemotePaths.get("mem://closing-vol/a");
        assertThat(fresh.exists()).isFalse();
        fresh.fileSystem().close();
    }

    @Test
    void toStringIsTheEncodedUri() throws Exception {
        RemotePath p = RemotePaths.get("mem://v1/dir/a%20b%23c%3Fd%25e");
        assertThat(p.name()).isEqualTo("a b#c?d%e");
        assertThat(p.toString()).isEqualTo("mem://v1/dir/a%20b%23c%3Fd%25e");
        assertThat(p.toUri().getPath()).isEqualTo("/dir/a b#c?d%e");
    }

    @Test
    void malformedUrisAreClearErrors() {
        assertThatThrownBy(() -> RemotePaths.get("mem:///no-volume")).isInstanceOf(InvalidPathException.class)
                .hasMessageContaining("volume");
        assertThatThrownBy(() -> RemotePaths.get("mem://v/a b")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> RemotePaths.get("mem://v/a?q=1")).isInstanceOf(InvalidPathException.class)
                .hasMessageContaining("query");
        assertThatThrownBy(() -> RemotePaths.get("mem://v/a%00b")).isInstanceOf(InvalidPathException.class)
                .hasMessageContaining("NUL");
        assertThatThrownBy(() -> RemotePaths.get("mem://v/a%zz")).isInstanceOf(InvalidPathException.class);
    }

    @Test
    void aNewVolumeIsEmpty() throws Exception {
        RemotePath root = RemotePaths.get("mem://fresh-" + java.util.UUID.randomUUID() + "/");
        assertThat(root.list()).isEmpty();
    }

    @Test
    void unknownSchemeNamesTheJarToAdd() {
        assertThatThrownBy(() -> RemotePaths.get("sftp://host/x")).isInstanceOf(ProviderNotFoundException.class)
                .hasMessageContaining("remotepath-sftp");
        // The backends of the second wave are named too.
        assertThatThrownBy(() -> RemotePaths.get("az://container/x")).hasMessageContaining("remotepath-azure");
        assertThatThrownBy(() -> RemotePaths.get("webdavs://host/x")).hasMessageContaining("remotepath-webdav");
        assertThatThrownBy(() -> RemotePaths.get("ftps://host/x")).hasMessageContaining("remotepath-ftp");
        assertThatThrownBy(() -> RemotePaths.get("gopher://host/x")).isInstanceOf(ProviderNotFoundException.class)
                .hasMessageContaining("gopher");
        // An archive URI is opaque: without remotepath-archive it is still "add this jar", not "malformed".
        assertThatThrownBy(() -> RemotePaths.get("zip:mem://v/x.zip!/a")).isInstanceOf(ProviderNotFoundException.class)
                .hasMessageContaining("remotepath-archive");
        assertThatThrownBy(() -> RemotePaths.get("mailto:someone@example.org")).isInstanceOf(InvalidPathException.class);
    }

    /** mem has no NIO file system underneath: its NIO path is the facade's, over the same volume. */
    @Test
    void toNioPathIsTheFacadesPathOnTheVolume() throws Exception {
        RemotePath p = RemotePaths.get("mem://nio-vol/x/y").parent().createDirectories().resolve("y").writeString("z");
        assertThat(p.fileSystem().toNioPath(p)).isEmpty();
        assertThat(p.toNioPath()).hasValueSatisfying(n -> {
            assertThat(n.toString()).isEqualTo("/x/y");
            assertThat(n.toUri()).isEqualTo(p.toUri());
        });
        assertThat(java.nio.file.Files.readString(p.toNioPath().orElseThrow())).isEqualTo("z");
        p.fileSystem().close();
    }

    /**
     * As GNU rm refuses {@code rm -r /}: a file system's root (here a volume's; on the local disk
     * {@code /}, which a test must not risk) is refused before anything is listed or removed,
     * however it was spelled.
     */
    @Test
    void theRootIsNeverRemovedRecursively() throws Exception {
        RemotePath keep = RemotePaths.get("mem://root-vol/d").createDirectories().child("keep.txt").writeString("kept");
        for (String root : new String[] {"mem://root-vol/", "mem://root-vol/d/.."}) {
            assertThatThrownBy(() -> RemotePaths.get(root).deleteRecursively())
                    .isInstanceOf(java.nio.file.FileSystemException.class)
                    .hasMessageContaining("refusing to remove the root of the file system");
        }
        // A move across file systems removes its source: a root is refused before it is copied.
        RemotePath elsewhere = RemotePaths.get("mem://root-vol-2/moved");
        assertThatThrownBy(() -> RemotePaths.get("mem://root-vol/").moveTo(elsewhere))
                .hasMessageContaining("refusing to remove the root of the file system");
        assertThat(elsewhere.exists()).isFalse();
        assertThat(keep.readString()).isEqualTo("kept");
        keep.parent().deleteRecursively(); // below the root: as ever
        assertThat(keep.parent().exists()).isFalse();
        keep.fileSystem().close();
        elsewhere.fileSystem().close();
    }
}
