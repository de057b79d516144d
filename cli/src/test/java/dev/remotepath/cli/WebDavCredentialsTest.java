package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.webdav.WebDavOptions;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.InvalidPathException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where {@code rpath} takes WebDAV credentials from: the URI's user and the environment, never a flag. */
class WebDavCredentialsTest {

    private static WebDavOptions options(String uri, Map<String, String> env) throws Exception {
        WebDavOptions.Builder b = WebDavOptions.builder();
        WebDavCredentials.apply(b, URI.create(uri), env);
        return b.build();
    }

    @Test
    void theUserComesFromTheUriOrTheEnvironmentAndThePasswordFromTheEnvironment() throws Exception {
        assertThat(options("webdav://alice@h/x", Map.of(WebDavCredentials.PASSWORD_ENV, "pw")).credentials())
                .contains(new WebDavOptions.Credentials.Password("alice", "pw"));
        assertThat(options("webdav://h/x", Map.of(WebDavCredentials.USER_ENV, "bob", WebDavCredentials.PASSWORD_ENV, "pw"))
                .credentials()).contains(new WebDavOptions.Credentials.Password("bob", "pw"));
        assertThat(options("webdav://h/x", Map.of(WebDavCredentials.TOKEN_ENV, "t0k")).credentials())
                .contains(new WebDavOptions.Credentials.Bearer("t0k"));
        assertThat(options("webdav://h/x", Map.of()).credentials()).isEmpty();
    }

    @Test
    void aUserWithoutAPasswordAndNoTerminalIsRefusedNamingTheVariable() {
        // the tests run without a console, as a script or CI does
        assertThatThrownBy(() -> options("webdav://alice@h/x", Map.of())).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining(WebDavCredentials.PASSWORD_ENV);
    }

    @Test
    void theUserIsTakenOutOfTheUriAndAPasswordInItIsRefused() {
        assertThat(WebDavCredentials.withoutUser(URI.create("webdav://alice@h:8080/a%20b/")))
                .isEqualTo(URI.create("webdav://h:8080/a%20b/"));
        assertThat(WebDavCredentials.withoutUser(URI.create("webdavs://h/x"))).isEqualTo(URI.create("webdavs://h/x"));
        assertThatThrownBy(() -> WebDavCredentials.withoutUser(URI.create("webdav://alice:secret@h/x")))
                .isInstanceOf(InvalidPathException.class).satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
    }
}
