package dev.remotepath.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.util.BinaryData;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.DirEntry;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.AbortableOutputStream;
import dev.remotepath.spi.WriteMode;
import dev.remotepath.testkit.NioFacadeFileSystem;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The Azure backend's own rules, on Azurite: blocks, markers, containers, credentials, dead and silent servers. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AzureBackendTest {

    private Azurite azurite;
    private RemotePath container;
    private AzureFileSystem fs;

    @BeforeAll
    void start() throws Exception {
        azurite = Azurite.start();
        azurite.createContainer("backend");
        container = RemotePaths.get(URI.create("az://backend/"), azurite.options(b -> b.blockSize(AzureOptions.MIN_BLOCK_SIZE)));
        fs = (AzureFileSystem) NioFacadeFileSystem.backendOf(container.fileSystem());
    }

    @AfterAll
    void stop() throws Exception {
        container.fileSystem().close();
        azurite.close();
    }

    /**
     * A stream cannot know its size and Azure takes 50,000 blocks: they grow, doubling every
     * step (here 2 blocks of 64 KiB), up to 8 times the first. The blob Azurite commits holds the
     * bytes written, in blocks of the sizes the schedule gives.
     */
    @org.junit.jupiter.api.Test
    void blocksGrowSoThatALongStreamFitsInFiftyThousand() throws Exception {
        int base = AzureOptions.MIN_BLOCK_SIZE;
        byte[] content = new byte[base * 30 + 123];
        new java.util.Random(7).nextBytes(content);
        RemotePath file = container.resolve("growing.bin");
        var blob = fs.blob(fs.name(file)).getBlockBlobClient();
        try (AzureUploadStream out = new AzureUploadStream(fs, file, blob, java.util.Map.of(), false, 2)) {
            for (int off = 0; off < content.length; off += 10_000) {
                out.write(content, off, Math.min(10_000, content.length - off));
            }
        }
        assertThat(file.readAllBytes()).isEqualTo(content);
        List<Long> sizes = blob.listBlocks(com.azure.storage.blob.models.BlockListType.COMMITTED).getCommittedBlocks()
                .stream().map(b -> b.getSizeLong()).toList();
        long k = base;
        // 2 of 64 KiB, 2 of 128, 2 of 256, then 512 KiB (8 times) until the rest
        assertThat(sizes).startsWith(k, k, 2 * k, 2 * k, 4 * k, 4 * k, 8 * k);
        assertThat(sizes.stream().mapToLong(Long::longValue).sum()).isEqualTo(content.length);
        assertThat(sizes).allMatch(size -> size <= 8 * k);

        assertThat(AzureUploadStream.blockSize(4 << 20, 4_999, AzureUploadStream.BLOCKS_PER_STEP)).isEqualTo(4 << 20);
        assertThat(AzureUploadStream.blockSize(4 << 20, 15_000, AzureUploadStream.BLOCKS_PER_STEP)).isEqualTo(32 << 20);
        assertThat(AzureUploadStream.blockSize(4 << 20, 49_999, AzureUploadStream.BLOCKS_PER_STEP)).isEqualTo(32 << 20);
        assertThat(AzureUploadStream.blockSize(AzureOptions.MAX_BLOCK_SIZE, 49_999, AzureUploadStream.BLOCKS_PER_STEP))
                .isEqualTo(AzureOptions.MAX_BLOCK_SIZE);
        // ~1.2 TiB at the default 4 MiB, where fixed blocks held 195 GiB
        assertThat(AzureUploadStream.capacity(4 << 20, AzureUploadStream.BLOCKS_PER_STEP)).isGreaterThan(1L << 40);
    }

    private static String md5(byte[] content) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(content));
    }

    @Test
    void aLargeFileIsStagedInBlocksCommittedOnceAndCarriesItsMd5() throws Exception {
        byte[] content = new byte[16 * AzureOptions.MIN_BLOCK_SIZE + 1];
        new java.util.Random(3).nextBytes(content);
        fs.requests.reset();
        RemotePath file = container.resolve("blocks/large.bin").write(content);
        assertThat(fs.requests.count("PUT block")).as(fs.requests.snapshot().toString()).isEqualTo(17);
        assertThat(fs.requests.count("PUT blocklist")).isEqualTo(1);
        assertThat(file.readAllBytes()).isEqualTo(content);
        assertThat(file.stat().checksums()).containsEntry(ChecksumAlgorithm.MD5, md5(content));
        assertThat(fs.nativeChecksum(file, ChecksumAlgorithm.MD5)).map(c -> c.hex()).contains(md5(content));
    }

    @Test
    void anAbortedUploadLeavesTheOldContentAndACreateOnlyWriteRefusesAnExistingBlob() throws Exception {
        RemotePath file = container.resolve("abort/kept.txt").writeString("old");
        try (OutputStream out = fs.openWrite(file, WriteMode.CREATE_OR_TRUNCATE)) {
            out.write(new byte[5 * AzureOptions.MIN_BLOCK_SIZE]); // blocks staged, none committed
            ((AbortableOutputStream) out).abort();
        }
        assertThat(file.readString()).isEqualTo("old");
        assertThatThrownBy(() -> {
            try (OutputStream out = fs.openWrite(file, WriteMode.CREATE_NEW)) {
                out.write('x');
            }
        }).isInstanceOf(FileAlreadyExistsException.class).hasMessageContaining("az://backend/abort/kept.txt");
        assertThat(file.readString()).isEqualTo("old");
        RemotePath fresh = container.resolve("abort/never.txt");
        try (OutputStream out = fs.openWrite(fresh, WriteMode.CREATE_NEW)) {
            out.write(new byte[3 * AzureOptions.MIN_BLOCK_SIZE]);
            ((AbortableOutputStream) out).abort();
        }
        assertThat(fresh.exists()).isFalse();
        assertThat(fs.openStreams()).isZero();
    }

    @Test
    void aFolderBlobOfAHierarchicalAccountIsADirectory() throws Exception {
        var sdk = fs.client;
        // What ADLS and Storage Explorer write: a zero-byte blob named as the folder, flagged.
        sdk.getBlobClient("adls/folder").getBlockBlobClient().uploadWithResponse(
                new com.azure.storage.blob.options.BlockBlobSimpleUploadOptions(BinaryData.fromBytes(new byte[0]))
                        .setMetadata(Map.of("hdi_isfolder", "true")), null, com.azure.core.util.Context.NONE);
        sdk.getBlobClient("adls/folder/inside.txt").upload(BinaryData.fromString("in"));
        sdk.getBlobClient("adls/emptyfolder").getBlockBlobClient().uploadWithResponse(
                new com.azure.storage.blob.options.BlockBlobSimpleUploadOptions(BinaryData.fromBytes(new byte[0]))
                        .setMetadata(Map.of("hdi_isfolder", "true")), null, com.azure.core.util.Context.NONE);
        RemotePath adls = container.resolve("adls");
        assertThat(adls.list()).extracting(DirEntry::name, DirEntry::type)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("folder", FileType.DIRECTORY),
                        org.assertj.core.groups.Tuple.tuple("emptyfolder", FileType.DIRECTORY));
        assertThat(adls.resolve("emptyfolder").stat().type()).isEqualTo(FileType.DIRECTORY);
        // A file system that has not listed it yet must not write a file over the folder blob.
        RemotePath fresh = RemotePaths.get(URI.create("az://backend/adls/emptyfolder"), azurite.options(b -> b.maxRetries(0)));
        assertThatThrownBy(() -> fresh.writeString("over it")).isInstanceOf(dev.remotepath.IsDirectoryException.class);
        fresh.fileSystem().close();
        assertThat(adls.resolve("emptyfolder").list()).isEmpty();
        assertThatThrownBy(() -> adls.resolve("emptyfolder").readAllBytes()).isInstanceOf(IOException.class);
        adls.resolve("emptyfolder").delete();
        assertThat(adls.resolve("emptyfolder").exists()).isFalse();
        adls.deleteRecursively();
        assertThat(adls.exists()).isFalse();
        assertThat(sdk.listBlobs().stream().map(b -> b.getName()).filter(n -> n.startsWith("adls"))).isEmpty();
    }

    @Test
    void mkdirOfAContainerRootCreatesTheContainerAndAMissingOneIsNoSuchFile() throws Exception {
        RemotePath missing = RemotePaths.get(URI.create("az://not-there/"), azurite.options());
        assertThatThrownBy(missing::stat).isInstanceOf(NoSuchFileException.class).hasMessageContaining("no such container");
        assertThatThrownBy(missing::list).isInstanceOf(NoSuchFileException.class).hasMessageContaining("az://not-there");
        RemotePath made = RemotePaths.get(URI.create("az://made-here/"), azurite.options());
        made.createDirectory();
        assertThat(made.isDirectory()).isTrue();
        assertThatThrownBy(made::createDirectory).isInstanceOf(FileAlreadyExistsException.class);
        made.resolve("x.txt").writeString("x");
        assertThat(made.resolve("x.txt").readString()).isEqualTo("x");
        missing.fileSystem().close();
        made.fileSystem().close();
    }

    @Test
    void aWrongKeyIsAccessDeniedNamingThePathAndNotTheKey() throws Exception {
        String wrong = java.util.Base64.getEncoder().encodeToString(new byte[64]);
        AzureOptions bad = azurite.options(b -> b.credentials(AzureCredentials.sharedKey(Azurite.ACCOUNT, wrong)).maxRetries(0));
        RemotePath p = RemotePaths.get(URI.create("az://backend/secret.txt"), bad);
        assertThatThrownBy(p::readAllBytes).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("az://backend/secret.txt").hasMessageNotContaining(wrong);
        assertThat(bad.toString()).doesNotContain(wrong).contains("***");
        AzureOptions cs = AzureOptions.builder().credentials(AzureCredentials.connectionString(azurite.connectionString()))
                .build();
        assertThat(cs.toString()).doesNotContain(Azurite.KEY);
        p.fileSystem().close();
    }

    @Test
    void aDeadEndpointFailsAtOnceAndASilentOneTimesOut() throws Exception {
        int deadPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            deadPort = s.getLocalPort();
        }
        AzureOptions dead = AzureOptions.builder().endpoint(URI.create("http://127.0.0.1:" + deadPort + "/acct"))
                .credentials(AzureCredentials.sharedKey("acct", Azurite.KEY)).maxRetries(0)
                .requestTimeout(Duration.ofSeconds(2)).build();
        RemotePath gone = RemotePaths.get(URI.create("az://dead/x"), dead);
        long t0 = System.nanoTime();
        assertThatThrownBy(gone::stat).isInstanceOf(IOException.class).hasMessageContaining("az://dead/x");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
        gone.fileSystem().close();

        List<Socket> held = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accepted, and never answered
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            AzureOptions mute = AzureOptions.builder().endpoint(URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/acct"))
                    .credentials(AzureCredentials.sharedKey("acct", Azurite.KEY)).maxRetries(0)
                    .requestTimeout(Duration.ofSeconds(1)).build();
            RemotePath quiet = RemotePaths.get(URI.create("az://silent/x"), mute);
            long t1 = System.nanoTime();
            assertThatThrownBy(quiet::stat).isInstanceOf(SocketTimeoutException.class).hasMessageContaining("az://silent/x");
            assertThat(Duration.ofNanos(System.nanoTime() - t1)).isLessThan(Duration.ofSeconds(30));
            quiet.fileSystem().close();
            acceptor.interrupt();
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void urisNameAContainerAndCarryNoCredentials() {
        assertThatThrownBy(() -> RemotePaths.get(URI.create("az://user:pw@backend/x"), azurite.options()))
                .isInstanceOf(InvalidPathException.class).hasMessageNotContaining("pw");
        for (String bad : List.of("az://UPPER/x", "az://a/x", "az://double--hyphen/x", "az://backend:99/x", "az://backend/x?q")) {
            assertThatThrownBy(() -> RemotePaths.get(URI.create(bad), azurite.options())).as(bad)
                    .isInstanceOf(InvalidPathException.class);
        }
    }

    @Test
    void optionsComeFromTheVariablesTheAzureCliReads() {
        AzureOptions fromKey = AzureOptions.fromEnvironment(Map.of("AZURE_STORAGE_ACCOUNT", "acct", "AZURE_STORAGE_KEY",
                Azurite.KEY)).build();
        assertThat(fromKey.credentials()).isEqualTo(AzureCredentials.sharedKey("acct", Azurite.KEY));
        assertThat(fromKey.endpoint()).contains(URI.create("https://acct.blob.core.windows.net"));
        AzureOptions fromSas = AzureOptions.fromEnvironment(Map.of("AZURE_STORAGE_ACCOUNT", "acct",
                "AZURE_STORAGE_SAS_TOKEN", "?sv=1&sig=x")).build();
        assertThat(fromSas.credentials()).isEqualTo(AzureCredentials.sasToken("sv=1&sig=x"));
        AzureOptions login = AzureOptions.fromEnvironment(Map.of("AZURE_STORAGE_ACCOUNT", "acct", "AZURE_STORAGE_KEY",
                Azurite.KEY, "AZURE_STORAGE_AUTH_MODE", "login")).build();
        assertThat(login.credentials()).isEqualTo(AzureCredentials.defaultChain());
        AzureOptions cs = AzureOptions.fromEnvironment(Map.of("AZURE_STORAGE_CONNECTION_STRING",
                azurite.connectionString())).build();
        assertThat(cs.credentials()).isInstanceOf(AzureCredentials.ConnectionString.class);
        assertThat(cs.endpoint()).isEmpty();
        assertThatThrownBy(() -> AzureOptions.fromEnvironment(Map.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("AZURE_STORAGE_CONNECTION_STRING");
    }

    @Test
    void aMalformedConnectionStringIsAnIoErrorNamingTheContainer() {
        AzureOptions nonsense = AzureOptions.builder().credentials(AzureCredentials.connectionString("no=such;thing"))
                .build();
        assertThatThrownBy(() -> RemotePaths.get(URI.create("az://backend/x"), nonsense))
                .isInstanceOf(java.nio.file.FileSystemException.class).hasMessageContaining("az://backend");
    }

    @Test
    void aSasTokenWritesReadsListsCopiesAndDeletes() throws Exception {
        String sas = fs.client.generateSas(new com.azure.storage.blob.sas.BlobServiceSasSignatureValues(
                java.time.OffsetDateTime.now().plusHours(1),
                com.azure.storage.blob.sas.BlobContainerSasPermission.parse("racwdl")));
        AzureOptions bySas = AzureOptions.builder().endpoint(azurite.endpoint())
                .credentials(AzureCredentials.sasToken(sas)).maxRetries(0).build();
        assertThat(bySas.toString()).doesNotContain(sas);
        RemotePath dir = RemotePaths.get(URI.create("az://backend/sas/"), bySas);
        AzureFileSystem sasFs = (AzureFileSystem) NioFacadeFileSystem.backendOf(dir.fileSystem());
        RemotePath a = dir.resolve("a.txt").writeString("by SAS");
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("a.txt");
        sasFs.requests.reset();
        RemotePath b = dir.resolve("b.txt");
        a.copyTo(b);
        assertThat(sasFs.requests.count("GET")).as("a server-side copy: " + sasFs.requests.snapshot()).isZero();
        assertThat(b.readString()).isEqualTo("by SAS");
        sasFs.requests.reset();
        dir.deleteRecursively();
        assertThat(container.resolve("sas").exists()).isFalse();
        assertThat(sasFs.requests.count("POST batch")).as("a container SAS authorises the container's batch: "
                + sasFs.requests.snapshot()).isEqualTo(1);
        dir.fileSystem().close();
    }

    @Test
    void aConnectionStringReachesTheSameContainer() throws Exception {
        AzureOptions cs = AzureOptions.builder().credentials(AzureCredentials.connectionString(azurite.connectionString()))
                .build();
        container.resolve("cs/seen.txt").writeString("seen");
        RemotePath p = RemotePaths.get(URI.create("az://backend/cs/seen.txt"), cs);
        assertThat(p.readString()).isEqualTo("seen");
        p.fileSystem().close();
    }

    @Test
    void anMtimeIsSetInPlaceWithoutRewritingTheBlob() throws Exception {
        RemotePath file = container.resolve("times/f.txt").writeString("content");
        Instant t = Instant.parse("1985-10-26T01:21:00.000000001Z");
        fs.requests.reset();
        file.setLastModifiedTime(t);
        assertThat(fs.requests.count("PUT") + fs.requests.count("PUT block")).as("no upload again").isZero();
        assertThat(fs.requests.count("PUT metadata")).isEqualTo(1);
        assertThat(file.stat().lastModified()).contains(t);
        assertThat(fs.client.getBlobClient("times/f.txt").getProperties().getMetadata())
                .containsEntry("mtime", "1985-10-26T01:21:00.000000001Z");
    }
}
