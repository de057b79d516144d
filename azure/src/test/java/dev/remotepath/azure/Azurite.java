package dev.remotepath.azure;

import dev.remotepath.testkit.LocalWebServers;
import dev.remotepath.testkit.ServerProcesses;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Azurite's blob service (npm {@code azurite}, installed by {@code .ci/run}), started on
 * 127.0.0.1 on a free port with its data in memory, under the emulator's well-known account.
 */
final class Azurite implements AutoCloseable {

    static final String ACCOUNT = "devstoreaccount1";
    /** The emulator's published development key (not a secret). */
    static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private final Process process;
    private final int port;
    private final Path work;

    private Azurite(Process process, int port, Path work) {
        this.process = process;
        this.port = port;
        this.work = work;
    }

    /** The {@code azurite-blob} program this machine has, or a clear failure naming where it was looked for. */
    static Path program() throws IOException {
        Path bin = LocalWebServers.npmBin().resolve("azurite-blob");
        if (!Files.isExecutable(bin)) {
            throw new IOException("Azurite is not installed (" + bin + "); .ci/run installs it from npm");
        }
        return bin;
    }

    static Azurite start() throws Exception {
        Path bin = program();
        Path work = Files.createTempDirectory("azurite");
        int port = ServerProcesses.freePort();
        Path log = work.resolve("azurite.log");
        Process p = new ProcessBuilder(List.of(bin.toString(), "--blobHost", "127.0.0.1", "--blobPort",
                String.valueOf(port), "--inMemoryPersistence", "--skipApiVersionCheck",
                "--disableProductStyleUrl", "--silent"))
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServerProcesses.awaitListening(p, port, log, "azurite");
        return new Azurite(p, port, work);
    }

    int port() {
        return port;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port + "/" + ACCOUNT);
    }

    String connectionString() {
        return "DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT + ";AccountKey=" + KEY + ";BlobEndpoint="
                + endpoint() + ";";
    }

    AzureOptions options() {
        return options(b -> { });
    }

    AzureOptions options(Consumer<AzureOptions.Builder> tweak) {
        AzureOptions.Builder b = AzureOptions.builder().endpoint(endpoint())
                .credentials(AzureCredentials.sharedKey(ACCOUNT, KEY)).maxRetries(1);
        tweak.accept(b);
        return b.build();
    }

    /** Makes a container through the SDK directly (not through the code under test). */
    void createContainer(String name) {
        AzureClients.service(options(), new AzureRequests()).getBlobContainerClient(name).createIfNotExists();
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        try (var files = Files.walk(work)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
