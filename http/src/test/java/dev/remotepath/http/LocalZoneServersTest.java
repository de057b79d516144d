package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.LocalWebServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Servers whose index pages show dates in their own local zone without saying so (Apache's
 * FancyIndexing, lighttpd, npm http-server), run with {@code TZ} set: half an hour off a whole
 * hour (Asia/Kolkata, +05:30), and with daylight saving (Europe/Berlin, +01:00 in January,
 * +02:00 in July). Every listed mtime must be the file's own, and a resync must copy nothing;
 * read as UTC, every file would be 5h30 or 1-2h off, and copied again on every run.
 */
class LocalZoneServersTest {

    private static final Instant WINTER = Instant.parse("2024-01-15T09:30:00Z");
    private static final Instant SUMMER = Instant.parse("2024-07-15T09:30:00Z");

    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource({"apache2, Asia/Kolkata", "apache2, Europe/Berlin", "lighttpd, Asia/Kolkata", "http-server, Asia/Kolkata",
        "http-server, Europe/Berlin"})
    void datesShownInAnUnstatedLocalZoneAreTheFilesOwn(String server, String zone) throws Exception {
        Path work = Files.createTempDirectory("rp-zone-");
        Path mirror = Files.createTempDirectory("rp-zone-mirror-");
        try {
            Path root = Files.createDirectories(work.resolve("tree"));
            write(root.resolve("winter.txt"), "winter", WINTER);
            write(root.resolve("summer.txt"), "summer", SUMMER);
            write(root.resolve("sub/deep.txt"), "deep", SUMMER.plusSeconds(3600));
            Files.setPosixFilePermissions(work, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            LocalWebServers.Running running;
            try {
                running = LocalWebServers.start(server, root, work, Map.of("TZ", zone));
            } catch (LocalWebServers.NotInstalledException missing) {
                if ("true".equals(System.getenv("CI"))) {
                    throw new AssertionError(missing.getMessage() + " (.ci/run installs it)");
                }
                assumeTrue(false, missing.getMessage());
                return;
            }
            try (running) {
                RemotePath tree = RemotePaths.get(running.base() + "/");
                try (Stream<DirEntry> walk = tree.walk()) {
                    for (DirEntry e : walk.filter(DirEntry::isRegularFile).toList()) {
                        Instant real = Files.getLastModifiedTime(root.resolve(tree.relativize(e.path()).pathString())).toInstant();
                        Duration precision = e.stat().lastModifiedPrecision();
                        assertThat(e.stat().lastModified()).as("%s on %s in %s", e.name(), server, zone).hasValueSatisfying(
                                t -> assertThat(Duration.between(t, real).abs().compareTo(precision) < 0
                                        || Duration.between(t, real).abs().compareTo(Duration.ofHours(1)) == 0
                                        && !zone.equals("Asia/Kolkata"))
                                        .as("%s shown as %s, is %s (an hour off only across daylight saving)", e.name(), t, real)
                                        .isTrue());
                    }
                }
                RemotePath target = RemotePaths.of(mirror);
                SyncReport first = PathSyncer.builder(tree, target).build().run();
                assertThat(first.errors()).isEmpty();
                assertThat(first.filesCopied()).isEqualTo(3);
                assertThat(Files.getLastModifiedTime(mirror.resolve("winter.txt")).toInstant()).isEqualTo(WINTER);
                SyncReport again = PathSyncer.builder(tree, target).build().run();
                assertThat(again.errors()).isEmpty();
                assertThat(again.filesCopied()).as("a resync of an unchanged tree").isZero();
                assertThat(again.contentBytesRead()).isZero();
            }
        } finally {
            LocalTrees.delete(work);
            LocalTrees.delete(mirror);
        }
    }

    private static void write(Path p, String content, Instant mtime) throws Exception {
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
        Files.setLastModifiedTime(p, FileTime.from(mtime));
        Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    }
}
