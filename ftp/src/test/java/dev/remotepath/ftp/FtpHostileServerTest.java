package dev.remotepath.ftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.syncer.PathSyncer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A server written to break the client: listings cut short, a {@code PASV} answer naming another
 * host, lines no parser knows, names that climb out of their directory, a trickle, silence, a
 * download shorter than its size. Each must end in a clear {@link IOException} within its
 * bound; never a hang, a skipped entry or a write outside the target.
 */
class FtpHostileServerTest {

    private static final String DIR = "type=dir;modify=20240101000000;";
    private static final String GOOD = "type=cdir;modify=20240101000000; .\r\n"
            + "type=file;size=5;modify=20240101000000; a.txt\r\n";

    @TempDir
    Path temp;

    private ScriptedFtpServer server;
    private RemotePath root;

    @BeforeEach
    void start() throws Exception {
        server = new ScriptedFtpServer();
        server.facts.put("/d", DIR);
    }

    /** The server's root, connected on first use: after the test has scripted the greeting and FEAT. */
    private RemotePath root() throws IOException {
        if (root == null) {
            FtpOptions quick = FtpOptions.builder().readTimeout(Duration.ofMillis(500))
                    .connectTimeout(Duration.ofSeconds(2)).build();
            root = RemotePaths.get(URI.create(server.base() + "/"), quick);
        }
        return root;
    }

    @AfterEach
    void stop() throws Exception {
        if (root != null) {
            root.fileSystem().close();
        }
        server.close();
    }

    private <T> T within(Duration bound, org.junit.jupiter.api.function.ThrowingSupplier<T> what) {
        return assertTimeoutPreemptively(bound, what);
    }

    @Test
    void aListingCutShortFailsAndASyncFromItDeletesNothing() throws Exception {
        server.data.put("MLSD /d", ScriptedFtpServer.Data.cutShort(GOOD));
        assertThatThrownBy(() -> root().resolve("d").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("cut short").hasMessageContaining("426");

        Path target = Files.createDirectories(temp.resolve("mirror"));
        Files.writeString(target.resolve("keep.txt"), "mine");
        assertThatThrownBy(() -> PathSyncer.builder(root().resolve("d"), RemotePaths.of(target)).deleteExtraneous(true)
                .build().run()).isInstanceOf(IOException.class);
        assertThat(Files.readString(target.resolve("keep.txt"))).isEqualTo("mine");
    }

    @Test
    void aPassiveAnswerNamingAnotherHostStillConnectsToTheServerTheUserNamed() throws Exception {
        // 10.255.255.1 answers nothing: following it would time out
        server.passiveAddress = "10,255,255,1";
        server.data.put("MLSD /d", ScriptedFtpServer.Data.of(GOOD));
        var names = within(Duration.ofSeconds(10), () -> root().resolve("d").list().stream().map(e -> e.name()).toList());
        assertThat(names).containsExactly("a.txt");
    }

    @Test
    void aListLineNoParserUnderstandsFailsTheListingNamingIt() {
        server.mlst = false;
        server.data.put("LIST /d", ScriptedFtpServer.Data.of("-rw-r--r--   1 ftp ftp    5 Jan 01  2024 a.txt\r\n"
                + "this is not a listing line\r\n"));
        assertThatThrownBy(() -> root().resolve("d").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("this is not a listing line");
    }

    /** Windows/IIS (DOS-style) and Unix LIST lines, each time with the precision its line shows. */
    @Test
    void listLinesOfWindowsAndUnixServersAreReadWithTheirPrecision() throws Exception {
        server.mlst = false;
        server.syst = "Windows_NT";
        server.data.put("LIST /d", ScriptedFtpServer.Data.of("01-01-24  10:30AM       <DIR>          sub dir\r\n"
                + "02-29-24  01:37PM                    5 my file.txt\r\n"));
        var entries = root().resolve("d").list(dev.remotepath.spi.ListDetail.FILE_STATS);
        assertThat(entries).extracting(e -> e.name()).containsExactly("my file.txt", "sub dir");
        assertThat(entries.get(1).isDirectory()).isTrue();
        var file = entries.get(0).stat();
        assertThat(file.size()).hasValue(5);
        assertThat(file.lastModified()).contains(java.time.Instant.parse("2024-02-29T13:37:00Z"));
        assertThat(file.lastModifiedPrecision()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void aUnixListLineOfAnOldFileIsPreciseToTheDayWhateverItsName() throws Exception {
        server.mlst = false;
        server.data.put("LIST /d", ScriptedFtpServer.Data.of("total 1\r\n"
                + "-rw-r--r--    1 ftp      ftp             5 Feb 29  2024 12:30\r\n"
                + "lrwxrwxrwx    1 ftp      ftp             5 Feb 29  2024 l -> 10:15:00\r\n"));
        var entries = root().resolve("d").list(dev.remotepath.spi.ListDetail.FILE_STATS);
        assertThat(entries).extracting(e -> e.name()).containsExactly("12:30", "l");
        for (var e : entries) {
            assertThat(e.stat().lastModifiedPrecision()).as(e.name()).isEqualTo(Duration.ofDays(1));
        }
    }

    @Test
    void anMlsdLineWithoutFactsFailsTheListing() {
        server.data.put("MLSD /d", ScriptedFtpServer.Data.of(GOOD + "garbage-without-a-space\r\n"));
        assertThatThrownBy(() -> root().resolve("d").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("garbage-without-a-space");
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", "../evil", "a/b", "nul\0name"})
    void aNameThatLeavesItsDirectoryIsRefusedAndNothingIsWritten(String name) throws Exception {
        server.data.put("MLSD /d", ScriptedFtpServer.Data.of(GOOD + "type=file;size=5;modify=20240101000000; " + name
                + "\r\n"));
        server.data.put("RETR /d/a.txt", ScriptedFtpServer.Data.of("alpha"));
        server.facts.put("/d/a.txt", "type=file;size=5;modify=20240101000000;");
        assertThatThrownBy(() -> root().resolve("d").list()).isInstanceOf(UnsafeNameException.class);

        Path target = temp.resolve("mirror");
        assertThatThrownBy(() -> PathSyncer.builder(root().resolve("d"), RemotePaths.of(target)).build().run())
                .isInstanceOf(IOException.class);
        try (Stream<Path> written = Files.walk(temp)) {
            assertThat(written.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
                    .doesNotContain("evil", "b", "name");
        }
    }

    @Test
    void aTricklingListingFailsWithinItsBound() {
        server.data.put("MLSD /d", ScriptedFtpServer.Data.trickling(Duration.ofMillis(100)));
        // ten read timeouts in all (5 s here), however steadily it trickles
        assertThatThrownBy(() -> within(Duration.ofSeconds(20), () -> root().resolve("d").list()))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("took longer");
    }

    @Test
    void aTricklingDownloadIsCutOffAfterAReadTimeoutOfWaiting() {
        // a byte every 100 ms: each read answered well within the 500 ms read timeout, for ever
        server.facts.put("/f", "type=file;size=100000;modify=20240101000000;");
        server.data.put("RETR /f", ScriptedFtpServer.Data.trickling(Duration.ofMillis(100)));
        assertThatThrownBy(() -> within(Duration.ofSeconds(20), () -> root().resolve("f").readAllBytes()))
                .isInstanceOf(java.net.SocketTimeoutException.class).hasMessageContaining("ftp://")
                .hasMessageContaining("/f: the body trickles").hasMessageContaining("-Dremotepath.minimumBodyRate");
    }

    @Test
    void aStalledListingFailsAfterTheReadTimeout() {
        server.data.put("MLSD /d", ScriptedFtpServer.Data.trickling(Duration.ofHours(1)));
        assertThatThrownBy(() -> within(Duration.ofSeconds(10), () -> root().resolve("d").list()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void anUploadTheServerStopsReadingFailsInsteadOfBlockingForever() {
        // the data connection is taken and never read: once the socket buffers are full, a
        // socket write blocks, and a socket has no write timeout of its own
        server.storeNeverRead = true;
        server.facts.put("/big.bin", "type=file;size=0;modify=20240101000000;");
        byte[] eightMiB = new byte[8 << 20];
        assertThatThrownBy(() -> within(Duration.ofSeconds(20), () -> root().resolve("big.bin").write(eightMiB)))
                .isInstanceOf(java.net.SocketTimeoutException.class).hasMessageContaining("big.bin")
                .hasMessageContaining("the server stopped reading");
    }

    @Test
    void aHostNameThatDoesNotResolveIsSaidSo() {
        assertThatThrownBy(() -> within(Duration.ofSeconds(20), () -> RemotePaths.get(URI.create("ftp://nosuchhost.invalid/"))))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("nosuchhost.invalid")
                .hasMessageContaining("unknown host (the name does not resolve)");
    }

    @Test
    void aServerThatNeverGreetsFailsWithinTheReadTimeout() {
        server.greet = false;
        assertThatThrownBy(() -> within(Duration.ofSeconds(10), () -> root().resolve("d").list()))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("127.0.0.1");
    }

    @Test
    void aTricklingGreetingFailsWithinTenReadTimeouts() {
        server.trickleGreeting = Duration.ofMillis(100);
        assertThatThrownBy(() -> within(Duration.ofSeconds(20), () -> root().resolve("d").list()))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("trickles");
    }

    @Test
    void anEndlessMultiLineReplyIsCutOffBeforeItFillsMemory() {
        server.endlessFeat = true;
        assertThatThrownBy(() -> within(Duration.ofSeconds(20), () -> root().resolve("d").list()))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("longer than");
    }

    @Test
    void aDownloadShorterThanItsSizeFailsAndLeavesNoFileBehind() throws Exception {
        server.facts.put("/f", "type=file;size=10;modify=20240101000000;");
        server.data.put("RETR /f", ScriptedFtpServer.Data.of("12345"));
        assertThatThrownBy(() -> root().resolve("f").readAllBytes()).isInstanceOf(IOException.class)
                .hasMessageContaining("cut it short");

        Path copy = temp.resolve("copy");
        assertThatThrownBy(() -> root().resolve("f").copyTo(RemotePaths.of(copy))).isInstanceOf(IOException.class);
        assertThat(copy).doesNotExist();
        try (Stream<Path> left = Files.list(temp)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("copy"));
        }
    }
}
