package dev.remotepath.cli;

import java.io.Console;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.InvalidPathException;
import java.util.Map;

/**
 * Where {@code rpath} takes a password from: an environment variable, else a prompt at the
 * terminal; never a flag or the URI (both end up in the shell's history and in logs).
 */
final class Passwords {

    private Passwords() {
    }

    /** Refuses {@code user:password@} in {@code uri}, naming the variable to use instead. */
    static void refuseInUri(URI uri, String passwordEnv) {
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && userInfo.contains(":")) {
            throw new InvalidPathException(uri.getScheme() + "://…", "a password in the URI is not accepted (it would "
                    + "end up in logs and the shell's history): set " + passwordEnv + " or answer the prompt");
        }
    }

    /**
     * {@code user}'s password for {@code what} at {@code uri}'s host: {@code passwordEnv}'s value,
     * else typed at the terminal.
     *
     * @throws AccessDeniedException when neither is there
     */
    static String of(String what, String user, URI uri, Map<String, String> env, String passwordEnv)
            throws AccessDeniedException {
        String password = env.get(passwordEnv);
        Console console = System.console();
        if (password == null && console != null) {
            char[] typed = console.readPassword("%s password for %s@%s: ", what, user, uri.getHost());
            password = typed == null ? null : new String(typed);
        }
        if (password == null) {
            throw new AccessDeniedException(uri.getScheme() + "://" + uri.getHost(), null, "no password for " + user
                    + ": set " + passwordEnv + " (no terminal to ask at)");
        }
        return password;
    }
}
