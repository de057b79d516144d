package dev.remotepath.cli;

import static dev.remotepath.cli.RpathTest.rpath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.ftp.FtpOptions;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.ftpserver.ConnectionConfigFactory;
import org.apache.ftpserver.DataConnectionConfigurationFactory;
import org.apache.ftpserver.FtpServer;
import org.apache.ftpserver.FtpServerFactory;
import org.apache.ftpserver.listener.ListenerFactory;
import org.apache.ftpserver.usermanager.ClearTextPasswordEncryptor;
import org.apache.ftpserver.usermanager.PropertiesUserManagerFactory;
import org.apache.ftpserver.usermanager.impl.BaseUser;
import org.apache.ftpserver.usermanager.impl.WritePermission;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rpath} with {@code ftp://} paths against an in-process MINA FtpServer that lets anonymous
 * users write, and where its FTP password comes from: never the URI or a flag.
 */
class FtpCommandTest {

    @TempDir
    Path temp;

    private FtpServer server;
    private int port;

    @BeforeEach
    void start() throws Exception {
        Path root = Files.createDirectories(temp.resolve("served"));
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        FtpServerFactory factory = new FtpServerFactory();
        ListenerFactory listener = new ListenerFactory();
        listener.setPort(port);
        listener.setServerAddress("127.0.0.1");
        DataConnectionConfigurationFactory data = new DataConnectionConfigurationFactory();
        data.setPassiveAddress("127.0.0.1");
        listener.setDataConnectionConfiguration(data.createDataConnectionConfiguration());
        factory.addListener("default", listener.createListener());
        PropertiesUserManagerFactory users = new PropertiesUserManagerFactory();
        users.setFile(Files.createFile(temp.resolve("users.properties")).toFile());
        users.setPasswordEncryptor(new ClearTextPasswordEncryptor());
        var manager = users.createUserManager();
        BaseUser anonymous = new BaseUser();
        anonymous.setName("anonymous");
        anonymous.setHomeDirectory(root.toString());
        anonymous.setAuthorities(List.of(new WritePermission()));
        manager.save(anonymous);
        factory.setUserManager(manager);
        ConnectionConfigFactory conn = new ConnectionConfigFactory();
        conn.setAnonymousLoginEnabled(true);
        conn.setMaxAnonymousLogins(20);
        conn.setMaxLogins(20);
        factory.setConnectionConfig(conn.createConnectionConfig());
        server = factory.createServer();
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void syncToAnFtpServerAndListIt() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(src.resolve("sub/b.txt"), "bravo!");
        String target = "ftp://127.0.0.1:" + port + "/dst/";

        RpathTest.Result first = rpath("sync", src + "/", target);
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(Files.readString(temp.resolve("served/dst/sub/b.txt"))).isEqualTo("bravo!");
        assertThat(rpath("ls", "-R", target).lines()).containsExactly("a.txt", "sub/", "sub/b.txt");
        assertThat(rpath("cat", target + "a.txt").out()).isEqualTo("alpha");

        Files.delete(src.resolve("a.txt"));
        RpathTest.Result second = rpath("sync", "--delete", src + "/", target);
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(temp.resolve("served/dst/a.txt")).doesNotExist();
        assertThat(temp.resolve("served/dst/sub/b.txt")).exists();
    }

    @Test
    void aNamedUserWithoutAPasswordIsRefusedNamingTheVariableAndAPasswordInTheUriNeverShows() {
        RpathTest.Result noPassword = rpath("ls", "ftp://alice@127.0.0.1:" + port + "/");
        assertThat(noPassword.code()).isNotZero();
        assertThat(noPassword.err()).contains(FtpCredentials.PASSWORD_ENV);

        RpathTest.Result inUri = rpath("ls", "ftp://alice:hunter2@127.0.0.1:" + port + "/");
        assertThat(inUri.code()).isNotZero();
        assertThat(inUri.err()).contains(FtpCredentials.PASSWORD_ENV).doesNotContain("hunter2");
    }

    @Test
    void thePasswordComesFromTheEnvironmentAndAnonymousNeedsNone() throws Exception {
        FtpOptions.Builder b = FtpOptions.builder();
        FtpCredentials.apply(b, URI.create("ftp://alice@h/x"), Map.of(FtpCredentials.PASSWORD_ENV, "pw"));
        assertThat(b.build().password()).contains("pw");
        for (String uri : List.of("ftp://h/x", "ftp://anonymous@h/x", "ftps://ftp@h/x")) {
            FtpOptions.Builder anon = FtpOptions.builder();
            FtpCredentials.apply(anon, URI.create(uri), Map.of());
            assertThat(anon.build().password()).as(uri).isEmpty();
        }
        assertThatThrownBy(() -> FtpCredentials.apply(FtpOptions.builder(), URI.create("ftp://alice@h/x"), Map.of()))
                .isInstanceOf(AccessDeniedException.class).hasMessageContaining(FtpCredentials.PASSWORD_ENV);
        assertThatThrownBy(() -> FtpCredentials.apply(FtpOptions.builder(), URI.create("ftp://alice:pw@h/x"), Map.of()))
                .isInstanceOf(InvalidPathException.class);
    }
}
