package dev.remotepath.cli;

import dev.remotepath.NameBytes;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line as the bytes it was given. The JVM decodes each argument in the locale's
 * charset and puts U+FFFD where a byte does not decode: under {@code LANG=C} (cron, containers,
 * services) every non-ASCII name, and under any locale a name that is not UTF-8, reached the
 * commands as another name. An argument holding U+FFFD is read again from
 * {@code /proc/self/cmdline} and decoded losslessly ({@link NameBytes}: UTF-8, each other byte
 * as its escape), as listings give such names; in a URI each escaped byte becomes {@code %XX},
 * the form its URI takes. Where the file cannot be read or does not end with these arguments,
 * the arguments stay as the JVM gave them.
 */
final class RawArguments {

    private static final Path CMDLINE = Path.of("/proc/self/cmdline");

    private RawArguments() {
    }

    /**
     * {@code args} with each argument the JVM could not decode read again from the process's
     * command line; called by {@code main} only when one holds U+FFFD.
     */
    static String[] recover(String[] args) {
        try {
            return recover(args, Files.readAllBytes(CMDLINE), Charset.forName(
                    System.getProperty("sun.jnu.encoding", "UTF-8"), java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException unreadable) {
            return args; // not Linux, or no /proc: the arguments as decoded
        }
    }

    /**
     * {@code args} recovered from {@code cmdline} (NUL-terminated arguments, the program's own
     * last): only where its last {@code args.length} entries decode, as the JVM decoded them
     * ({@code jvmCharset}), to exactly {@code args}.
     */
    static String[] recover(String[] args, byte[] cmdline, Charset jvmCharset) {
        List<byte[]> all = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < cmdline.length; i++) {
            if (cmdline[i] == 0) {
                all.add(java.util.Arrays.copyOfRange(cmdline, start, i));
                start = i + 1;
            }
        }
        if (start < cmdline.length) {
            all.add(java.util.Arrays.copyOfRange(cmdline, start, cmdline.length));
        }
        if (all.size() < args.length) {
            return args;
        }
        List<byte[]> tail = all.subList(all.size() - args.length, all.size());
        for (int i = 0; i < args.length; i++) {
            if (!new String(tail.get(i), jvmCharset).equals(args[i])) {
                return args; // not this process's arguments as the JVM read them
            }
        }
        String[] out = args.clone();
        for (int i = 0; i < args.length; i++) {
            if (args[i].indexOf('\uFFFD') >= 0) {
                String lossless = NameBytes.decode(tail.get(i));
                out[i] = RemotePaths.startsWithScheme(lossless) ? escapesAsPercent(lossless) : lossless;
            }
        }
        return out;
    }

    /** A URI's escaped bytes as {@code %XX}; the rest as it is. */
    private static String escapesAsPercent(String uri) {
        StringBuilder sb = new StringBuilder(uri.length() + 8);
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (NameBytes.isEscape(uri, i)) {
                sb.append('%').append(java.util.HexFormat.of().withUpperCase().toHexDigits((byte) (c - 0xDC00)));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
