package dev.remotepath.testkit;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Azurite's blob service (npm {@code azurite}, installed by {@code .ci/run} where
 * {@link LocalWebServers#npmBin()} looks), started on 127.0.0.1 on a free port with its data in
 * memory, under the emulator's published development account. For the azure module's tests and
 * the CLI's.
 */
public final class Azurite implements AutoCloseable {

    /** The emulator's account. */
    public static final String ACCOUNT = "devstoreaccount1";
    /** The emulator's published development key (not a secret). */
    public static final String KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private final Process process;
    private final int port;
    private final Path work;

    private Azurite(Process process, int port, Path work) {
        this.process = process;
        this.port = port;
        this.work = work;
    }

    /** Starts one, failing with where it was looked for when it is not installed. */
    public static Azurite start() throws Exception {
        Path bin = LocalWebServers.npmBin().resolve("azurite-blob");
        if (!Files.isExecutable(bin)) {
            throw new LocalWebServers.NotInstalledException("Azurite is not installed (" + bin
                    + "); .ci/run installs it from npm");
        }
        Path work = Files.createTempDirectory("azurite");
        int port = ServerProcesses.freePort();
        Path log = work.resolve("azurite.log");
        // --skipApiVersionCheck: the SDK speaks a newer service version than the emulator knows.
        Process p = new ProcessBuilder(List.of(bin.toString(), "--blobHost", "127.0.0.1", "--blobPort",
                String.valueOf(port), "--inMemoryPersistence", "--skipApiVersionCheck", "--disableProductStyleUrl",
                "--silent"))
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServerProcesses.awaitListening(p, port, log, "azurite");
        return new Azurite(p, port, work);
    }

    /** The blob endpoint: {@code http://127.0.0.1:PORT/devstoreaccount1}. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port + "/" + ACCOUNT);
    }

    /** A connection string for it, as {@code AZURE_STORAGE_CONNECTION_STRING} holds one. */
    public String connectionString() {
        return "DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT + ";AccountKey=" + KEY + ";BlobEndpoint="
                + endpoint() + ";";
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        LocalTrees.delete(work);
    }
}
