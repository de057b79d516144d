package dev.remotepath.cli;

import dev.remotepath.ftp.FtpOptions;
import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * Where {@code rpath} finds an FTP server's password: never on the command line. The user comes
 * from the URI ({@code ftp://alice@host/}); no user, or {@code anonymous}/{@code ftp}, logs in
 * anonymously and needs none. Otherwise the password is {@value #PASSWORD_ENV}, else typed at a
 * prompt.
 */
final class FtpCredentials {

    static final String PASSWORD_ENV = "RPATH_FTP_PASSWORD";

    private FtpCredentials() {
    }

    static void apply(FtpOptions.Builder b, URI uri, Map<String, String> env) throws IOException {
        Passwords.refuseInUri(uri, PASSWORD_ENV);
        String user = uri.getUserInfo();
        if (user == null || user.equalsIgnoreCase("anonymous") || user.equalsIgnoreCase("ftp")) {
            return;
        }
        b.password(Passwords.of("FTP", user, uri, env, PASSWORD_ENV));
    }
}
