package dev.remotepath.cli;

import dev.remotepath.webdav.WebDavOptions;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.util.Map;

/**
 * Where {@code rpath} finds a WebDAV server's credentials: never on the command line. The user
 * comes from the URI ({@code webdav://alice@host/}, which the library itself refuses so that no
 * URI carries a secret) or {@value #USER_ENV}; the password from {@value #PASSWORD_ENV}, else a
 * prompt at the terminal; a bearer token from {@value #TOKEN_ENV}.
 */
final class WebDavCredentials {

    static final String USER_ENV = "RPATH_WEBDAV_USER";
    static final String PASSWORD_ENV = "RPATH_WEBDAV_PASSWORD";
    static final String TOKEN_ENV = "RPATH_WEBDAV_TOKEN";

    private WebDavCredentials() {
    }

    /** {@code uri} without its user, as the library takes it. */
    static URI withoutUser(URI uri) {
        if (uri.getRawUserInfo() == null) {
            return uri;
        }
        Passwords.refuseInUri(uri, PASSWORD_ENV);
        try {
            return new URI(uri.getScheme() + "://" + uri.getRawAuthority().substring(uri.getRawAuthority().indexOf('@') + 1)
                    + (uri.getRawPath() == null ? "" : uri.getRawPath()));
        } catch (URISyntaxException e) {
            throw new InvalidPathException(uri.toString(), e.getReason());
        }
    }

    static void apply(WebDavOptions.Builder b, URI uri, Map<String, String> env) throws IOException {
        String token = env.get(TOKEN_ENV);
        if (token != null && !token.isEmpty()) {
            b.bearerToken(token);
            return;
        }
        String user = uri.getUserInfo() != null ? uri.getUserInfo() : env.get(USER_ENV);
        if (user == null || user.isEmpty()) {
            return; // anonymous
        }
        b.password(user, Passwords.of("WebDAV", user, uri, env, PASSWORD_ENV));
    }
}
