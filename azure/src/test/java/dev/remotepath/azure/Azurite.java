package dev.remotepath.azure;

import java.net.URI;
import java.util.function.Consumer;

/**
 * The testkit's Azurite, with this module's options for it: one emulator for the module's test
 * JVM (each class works in containers of its own), stopped when the JVM ends.
 */
final class Azurite implements AutoCloseable {

    static final String ACCOUNT = dev.remotepath.testkit.Azurite.ACCOUNT;
    static final String KEY = dev.remotepath.testkit.Azurite.KEY;

    private final dev.remotepath.testkit.Azurite server;

    private Azurite(dev.remotepath.testkit.Azurite server) {
        this.server = server;
    }

    private static Azurite shared;

    static synchronized Azurite start() throws Exception {
        if (shared == null) {
            dev.remotepath.testkit.Azurite server = dev.remotepath.testkit.Azurite.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.close();
                } catch (Exception e) {
                    // the JVM is ending
                }
            }));
            shared = new Azurite(server);
        }
        return shared;
    }

    URI endpoint() {
        return server.endpoint();
    }

    String connectionString() {
        return server.connectionString();
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

    /** Leaves the shared emulator running for the next class; the JVM's end stops it. */
    @Override
    public void close() {
    }
}
