package dev.remotepath.http.index;

import dev.remotepath.UriPaths;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Tells an HTML directory index from any other page served with 200: a maintenance page, a
 * login form, an error page with a link or two. A listing is evidence for deletions, so an HTML
 * page counts as the index of a directory only when it says so: its {@code <title>} or a
 * heading ({@code <h1>}..{@code <h3>}) names the directory's path, as every index generator
 * does ("Index of /pub/x/" from Apache, nginx, lighttpd, mini_httpd and npm http-server,
 * "Directory listing for /pub/x/" from Python, "Directory: /pub/x/" from Jetty, "host - /pub/x/"
 * from IIS, "/pub/x/" from Caddy, "Files within site/pub/x/" from npm serve).
 *
 * <p>The text is compared after tags inside it are dropped (Caddy's breadcrumb links),
 * character references decoded, white space collapsed, and, as a second chance,
 * percent-decoded. The path must end the text or be followed by white space, so "/pub/x" does
 * not match "/pub/xyz"; written relative to the server's root it must also end in '/' and start
 * a word ("Index of pub/x/", mini_httpd).
 */
public final class IndexTitles {

    /** Titles and headings sit at the top; a page is not scanned further than this for them. */
    private static final int SCAN_LIMIT = 64 * 1024;

    private IndexTitles() {
    }

    /**
     * Whether the HTML page names {@code directoryPath} (decoded, ending in '/') in its title or
     * a heading.
     */
    public static boolean namesDirectory(byte[] page, int length, String directoryPath) {
        String dir = directoryPath.endsWith("/") ? directoryPath.substring(0, directoryPath.length() - 1) : directoryPath;
        int limit = Math.min(length, SCAN_LIMIT);
        String head = new String(page, 0, limit, StandardCharsets.ISO_8859_1);
        String lower = head.toLowerCase(Locale.ROOT);
        for (String tag : new String[] {"title", "h1", "h2", "h3"}) {
            int from = 0;
            while (true) {
                int open = lower.indexOf("<" + tag, from);
                if (open < 0) {
                    break;
                }
                int start = lower.indexOf('>', open);
                int end = start < 0 ? -1 : lower.indexOf("</" + tag, start);
                if (end < 0) {
                    break;
                }
                if (names(text(head, start + 1, end), dir)) {
                    return true;
                }
                from = end;
            }
        }
        return false;
    }

    /** The element's text: inner tags dropped, references decoded, bytes read as UTF-8, spaces collapsed. */
    private static String text(String latin1, int from, int to) {
        StringBuilder sb = new StringBuilder(to - from);
        boolean inTag = false;
        for (int i = from; i < to; i++) {
            char c = latin1.charAt(i);
            if (c == '<') {
                inTag = true;
            } else if (c == '>') {
                inTag = false;
            } else if (!inTag) {
                sb.append(c);
            }
        }
        String decoded = Entities.decode(sb.toString(), 0, sb.length());
        String unicode = new String(decoded.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        return unicode.replaceAll("[\\s\\u00a0]+", " ").strip();
    }

    private static boolean names(String text, String dir) {
        if (endsWithPath(text, dir)) {
            return true;
        }
        if (text.indexOf('%') >= 0) {
            try {
                return endsWithPath(UriPaths.decode(text), dir);
            } catch (IllegalArgumentException notEncoded) {
                return false;
            }
        }
        return false;
    }

    /**
     * {@code dir}, with or without its final '/', ends the text or is followed by white space.
     * For the root ({@code dir} empty), the text ends with '/' or holds a lone "/".
     */
    private static boolean endsWithPath(String text, String dir) {
        if (dir.isEmpty()) {
            return text.endsWith("/") || text.startsWith("/ ") || text.contains(" / ");
        }
        for (String candidate : new String[] {dir + "/", dir}) {
            int at = text.indexOf(candidate);
            while (at >= 0) {
                int after = at + candidate.length();
                if (after == text.length() || Character.isWhitespace(text.charAt(after))) {
                    return true;
                }
                at = text.indexOf(candidate, at + 1);
            }
        }
        // Relative to the server's root, with its slash, as a word of its own: mini_httpd's
        // "Index of sub dir/" (and "./sub dir/").
        String relative = dir.substring(1) + "/";
        int at = text.indexOf(relative);
        while (at >= 0) {
            int after = at + relative.length();
            boolean startsWord = at == 0 || Character.isWhitespace(text.charAt(at - 1))
                    || (at >= 2 && text.startsWith("./", at - 2) && (at == 2 || Character.isWhitespace(text.charAt(at - 3))));
            if (startsWord && (after == text.length() || Character.isWhitespace(text.charAt(after)))) {
                return true;
            }
            at = text.indexOf(relative, at + 1);
        }
        return false;
    }
}
