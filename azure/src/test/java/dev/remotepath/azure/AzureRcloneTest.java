package dev.remotepath.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.sas.BlobContainerSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.testkit.LocalTrees;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * RemotePath and rclone's azureblob backend read each other's trees on the same Azurite: the
 * mtimes (metadata {@code mtime}, to the nanosecond), the MD5s, and the directory markers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AzureRcloneTest {

    private static final Pattern LSJSON = Pattern.compile(
            "\"Path\":\"([^\"]*)\".*?\"ModTime\":\"([^\"]*)\".*?\"IsDir\":(true|false)(?:.*?\"md5\":\"([0-9a-f]*)\")?");

    private Azurite azurite;
    private RemotePath container;
    private String sasUrl;
    private Path work;

    @BeforeAll
    void start() throws Exception {
        azurite = Azurite.start();
        azurite.createContainer("interop");
        container = RemotePaths.get(URI.create("az://interop/"), azurite.options());
        var client = AzureClients.service(azurite.options(), new AzureRequests()).getBlobContainerClient("interop");
        // rclone 1.60 takes an endpoint only as a domain suffix; a SAS URL it takes whole.
        sasUrl = client.getBlobContainerUrl() + "?" + client.generateSas(new BlobServiceSasSignatureValues(
                OffsetDateTime.now().plusDays(1), BlobContainerSasPermission.parse("racwdl")));
        work = Files.createTempDirectory("az-rclone");
    }

    @AfterAll
    void stop() throws Exception {
        container.fileSystem().close();
        azurite.close();
        LocalTrees.delete(work);
    }

    private String rclone(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("rclone", "--azureblob-sas-url", sasUrl,
                "--low-level-retries", "1", "--retries", "1", "--contimeout", "5s", "--timeout", "20s"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("rclone " + String.join(" ", args) + ": " + err).isZero();
        return out;
    }

    private Map<String, String[]> rcloneListing(String dir) throws Exception {
        Map<String, String[]> out = new HashMap<>();
        for (String line : rclone("lsjson", "-R", "--hash", ":azureblob:interop/" + dir).split("\n")) {
            Matcher m = LSJSON.matcher(line);
            if (m.find()) {
                out.put(m.group(1), new String[] {m.group(2), m.group(3), m.group(4)});
            }
        }
        return out;
    }

    private Path tree(String name) throws Exception {
        Path root = work.resolve(name);
        Files.createDirectories(root.resolve("sub/deeper"));
        Files.writeString(root.resolve("a.txt"), "alpha");
        Files.writeString(root.resolve("sub/b.txt"), "bravo, a little longer");
        Files.write(root.resolve("sub/deeper/c.bin"), new byte[200_000]);
        Files.setLastModifiedTime(root.resolve("a.txt"), FileTime.from(Instant.parse("2001-02-03T04:05:06.123456789Z")));
        Files.setLastModifiedTime(root.resolve("sub/b.txt"), FileTime.from(Instant.parse("2019-12-31T23:59:59.5Z")));
        Files.setLastModifiedTime(root.resolve("sub/deeper/c.bin"), FileTime.from(Instant.parse("1999-01-01T00:00:00Z")));
        return root;
    }

    @Test
    void rcloneReadsRemotePathsTimesAndHashes() throws Exception {
        Path source = tree("ours");
        PathSyncer.builder(RemotePaths.get(source.toUri()), container.resolve("ours")).build().run();
        Map<String, String[]> listed = rcloneListing("ours");
        for (String file : List.of("a.txt", "sub/b.txt", "sub/deeper/c.bin")) {
            assertThat(listed).as(file).containsKey(file);
            Instant local = Files.getLastModifiedTime(source.resolve(file)).toInstant();
            assertThat(Instant.parse(listed.get(file)[0])).as(file + " as rclone reads its mtime").isEqualTo(local);
            assertThat(listed.get(file)[2]).as(file + "'s MD5 as rclone reads it")
                    .isEqualTo(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                            .digest(Files.readAllBytes(source.resolve(file)))));
        }
    }

    @Test
    void remotePathReadsRclonesTimesHashesAndMarkers() throws Exception {
        Path source = tree("theirs");
        rclone("copy", source.toString(), ":azureblob:interop/theirs");
        RemotePath copied = container.resolve("theirs");
        for (String file : List.of("a.txt", "sub/b.txt", "sub/deeper/c.bin")) {
            var stat = copied.resolve(file).stat();
            assertThat(stat.lastModified()).as(file).contains(Files.getLastModifiedTime(source.resolve(file)).toInstant());
            assertThat(stat.checksums().get(ChecksumAlgorithm.MD5)).as(file + " MD5")
                    .isEqualTo(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                            .digest(Files.readAllBytes(source.resolve(file)))));
        }
        // A listing carries the same times as a stat: a no-op resync reads nothing.
        var again = PathSyncer.builder(RemotePaths.get(source.toUri()), copied).build().run();
        assertThat(again.filesCopied()).isZero();
        assertThat(again.contentBytesRead()).isZero();
        assertThat(copied.resolve("sub").list()).extracting(DirEntry::name).containsExactlyInAnyOrder("b.txt", "deeper");
    }

    @Test
    void directoriesMadeByEitherToolAreDirectoriesToTheOther() throws Exception {
        container.resolve("markers/ours-empty").createDirectories();
        assertThat(rclone("lsjson", ":azureblob:interop/markers")).as("rclone lists our marker as a directory")
                .contains("\"Path\":\"ours-empty\"").contains("\"IsDir\":true");
    }
}
