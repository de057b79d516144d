package dev.remotepath.http.index;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.NameBytes;
import dev.remotepath.spi.ListedEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads any HTML directory index in one pass: every {@code <a href>} that names a direct child
 * of the listed directory becomes an entry (a trailing '/' makes it a directory); its size and
 * date come from the text of the same row (after the link, or before it for IIS). Names come
 * from the href, never the link text, which servers truncate. Links that leave the directory
 * (parent, sort links with a query, other hosts, {@code javascript:}, deeper paths) are ignored.
 *
 * <p>The page is taken as ISO-8859-1 so every byte maps to one char; hrefs are then decoded as
 * percent-encoded UTF-8 bytes (bytes that are not UTF-8 are kept losslessly).
 */
final class HtmlIndexParser {

    private final String page;
    private final String directoryPath;
    private final String scheme;
    private final String authority;

    /**
     * @param page          the page, one char per byte
     * @param directoryPath the listed directory's decoded path, ending in '/'
     */
    HtmlIndexParser(String page, String directoryPath, String scheme, String authority) {
        this.page = page;
        this.directoryPath = directoryPath;
        this.scheme = scheme;
        this.authority = authority;
        this.upperCaseLinks = page.contains("<A");
    }

    List<ListedEntry> parse() {
        List<ListedEntry> out = new ArrayList<>(Math.max(16, page.length() / 64));
        String previous = null;
        String p = page;
        int len = p.length();
        int a = indexOfTagA(p, 0, len);
        while (a >= 0) {
            int current = a;
            int tagEnd = p.indexOf('>', current);
            if (tagEnd < 0) {
                break;
            }
            String href = hrefOf(p, current + 2, tagEnd);
            int close = indexOfCloseA(p, tagEnd + 1, len);
            int after = close < 0 ? tagEnd + 1 : p.indexOf('>', close) + 1;
            if (after <= 0) {
                after = len;
            }
            // The next link is found once: it ends this row's metadata and starts the next turn.
            a = indexOfTagA(p, after, len);
            if (href == null) {
                continue;
            }
            String segment = childSegment(href);
            if (segment == null) {
                continue;
            }
            boolean directory = segment.endsWith("/");
            String rawName = directory ? segment.substring(0, segment.length() - 1) : segment;
            String name = percentDecode(rawName);
            if (name == null) {
                continue;
            }
            FileStat stat = metadata(directory ? FileType.DIRECTORY : FileType.FILE, current, after, a < 0 ? len : a);
            if (name.equals(previous)) {
                // Apache FancyIndexing links an icon and then the name to the same href: keep one,
                // with the metadata the second one's row text carries.
                if (stat.lastModified().isPresent() || stat.size().isPresent()) {
                    out.set(out.size() - 1, new ListedEntry(name, stat));
                }
                continue;
            }
            previous = name;
            out.add(new ListedEntry(name, stat));
        }
        return out;
    }

    // ---------------------------------------------------------------- links

    /** True when the page has an upper-case {@code <A}: only then is the slower any-case scan needed. */
    private final boolean upperCaseLinks;

    private int indexOfTagA(String p, int from, int len) {
        if (!upperCaseLinks) {
            // The vectorized String.indexOf finds "<a" without stopping at every other tag.
            int i = from;
            while (true) {
                i = p.indexOf("<a", i);
                if (i < 0 || i + 2 >= len) {
                    return -1;
                }
                char d = p.charAt(i + 2);
                if (d == ' ' || d == '\t' || d == '\n' || d == '\r') {
                    return i;
                }
                i += 2;
            }
        }
        return indexOfTagAnyCase(p, from, len);
    }

    private static int indexOfTagAnyCase(String p, int from, int len) {
        int i = from;
        while (true) {
            i = p.indexOf('<', i);
            if (i < 0 || i + 2 >= len) {
                return -1;
            }
            char c = p.charAt(i + 1);
            char d = p.charAt(i + 2);
            if ((c == 'a' || c == 'A') && (d == ' ' || d == '\t' || d == '\n' || d == '\r')) {
                return i;
            }
            i++;
        }
    }

    /** The next "</a" (any case) at or after {@code from}, jumping from '<' to '<'. */
    private static int indexOfCloseA(String p, int from, int len) {
        int i = from;
        while (true) {
            i = p.indexOf('<', i);
            if (i < 0 || i + 2 >= len) {
                return -1;
            }
            char c = p.charAt(i + 2);
            if (p.charAt(i + 1) == '/' && (c == 'a' || c == 'A')) {
                return i;
            }
            i++;
        }
    }

    /** The next "href" (any case) in [from, to), jumping between 'h'/'H' characters. */
    private static int indexOfHref(String p, int from, int to) {
        for (int i = from; i + 4 <= to; i++) {
            char c = p.charAt(i);
            if ((c == 'h' || c == 'H') && p.regionMatches(true, i + 1, "ref", 0, 3)) {
                return i;
            }
        }
        return -1;
    }

    /** The entity-decoded value of the href attribute in {@code p[from, to)}, or null. */
    private static String hrefOf(String p, int from, int to) {
        int i = from;
        while (i < to) {
            int h = indexOfHref(p, i, to);
            if (h < 0) {
                return null;
            }
            int k = h + 4;
            char before = p.charAt(h - 1);
            if (before != ' ' && before != '\t' && before != '\n' && before != '\r') {
                i = k;
                continue;
            }
            while (k < to && p.charAt(k) == ' ') {
                k++;
            }
            if (k >= to || p.charAt(k) != '=') {
                i = k;
                continue;
            }
            k++;
            while (k < to && p.charAt(k) == ' ') {
                k++;
            }
            if (k >= to) {
                return null;
            }
            char q = p.charAt(k);
            int start;
            int end;
            if (q == '"' || q == '\'') {
                start = k + 1;
                end = p.indexOf(q, start);
                if (end < 0 || end > to) {
                    return null;
                }
            } else {
                start = k;
                end = start;
                while (end < to && p.charAt(end) != ' ' && p.charAt(end) != '>') {
                    end++;
                }
            }
            return Entities.decode(p, start, end);
        }
        return null;
    }

    /**
     * The child segment (with its trailing '/' if a directory) that an href names, or null when
     * it does not name a direct child of the listed directory.
     */
    String childSegment(String href) {
        String h = href.strip();
        if (h.isEmpty() || h.charAt(0) == '#' || h.charAt(0) == '?') {
            return null;
        }
        int colon = schemeEnd(h);
        if (colon > 0) {
            String s = h.substring(0, colon);
            if (!s.equalsIgnoreCase(scheme) || !h.startsWith("//", colon + 1)) {
                return null; // javascript:, mailto:, another scheme
            }
            h = h.substring(colon + 1);
        }
        if (h.startsWith("//")) {
            int slash = h.indexOf('/', 2);
            String auth = slash < 0 ? h.substring(2) : h.substring(2, slash);
            if (!auth.equalsIgnoreCase(authority)) {
                return null; // another host
            }
            h = slash < 0 ? "/" : h.substring(slash);
        }
        if (h.indexOf('?') >= 0 || h.indexOf('#') >= 0) {
            return null; // sort links and anything with a query or fragment is not a plain child
        }
        if (h.startsWith("/")) {
            String decoded = percentDecode(h);
            if (decoded == null || !decoded.startsWith(directoryPath)) {
                return null;
            }
            // Re-derive the raw segment: count the decoded prefix's segments in the raw href.
            int segments = countSlashes(directoryPath);
            int pos = 0;
            for (int k = 0; k < segments; k++) {
                pos = h.indexOf('/', pos) + 1;
            }
            h = h.substring(pos);
        } else {
            while (h.startsWith("./")) {
                h = h.substring(2);
            }
        }
        int slash = h.indexOf('/');
        if (slash >= 0 && slash != h.length() - 1) {
            return null; // deeper than a child
        }
        if (h.isEmpty() || h.equals("/") || h.equals(".") || h.equals("./") || h.equals("..") || h.equals("../")) {
            return null;
        }
        return h;
    }

    private static int schemeEnd(String h) {
        if (h.indexOf(':') < 0) {
            return -1; // the common case: a plain relative href
        }
        for (int i = 0; i < h.length(); i++) {
            char c = h.charAt(i);
            if (c == ':') {
                return i > 0 ? i : -1;
            }
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && ((c >= '0' && c <= '9')
                    || c == '+' || c == '-' || c == '.'));
            if (!ok) {
                return -1;
            }
        }
        return -1;
    }

    private static int countSlashes(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '/') {
                n++;
            }
        }
        return n;
    }

    /**
     * Exact percent-decoding of an href: its chars are bytes (the page was read as Latin-1),
     * so raw UTF-8 in an href decodes as well as %XX does; '+' stays '+'. Null when malformed.
     */
    static String percentDecode(String raw) {
        int n = raw.length();
        boolean plain = true;
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (c == '%' || c > 0x7f) {
                plain = false;
                break;
            }
        }
        if (plain) {
            return raw;
        }
        byte[] out = new byte[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= n) {
                    return null;
                }
                int hi = Character.digit(raw.charAt(i + 1), 16);
                int lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out[k++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                out[k++] = (byte) c; // chars are bytes here, and entities above 0xff were UTF-8 encoded
            }
        }
        return NameBytes.decode(out, 0, k);
    }

    // ---------------------------------------------------------------- size and date columns

    private static final FileStat PLAIN_FILE = FileStat.ofType(FileType.FILE);
    private static final FileStat PLAIN_DIRECTORY = FileStat.ofType(FileType.DIRECTORY);

    /** Size and date from the row's text after the link, or before it (IIS). */
    private FileStat metadata(FileType type, int linkStart, int afterLink, int nextLink) {
        int nl = page.indexOf('\n', afterLink);
        int rowEnd = nl >= 0 && nl < nextLink ? nl : nextLink;
        FileStat s = fromText(type, afterLink, rowEnd);
        if (s != null) {
            return s;
        }
        int rowStart = rowStart(linkStart);
        s = fromText(type, rowStart, linkStart);
        if (s != null) {
            return s;
        }
        return type == FileType.DIRECTORY ? PLAIN_DIRECTORY : PLAIN_FILE;
    }

    private int rowStart(int linkStart) {
        String p = page;
        int nl = p.lastIndexOf('\n', linkStart - 1) + 1;
        int br = lastIndexOfIgnoreCase(p, "<br", linkStart - 1, nl);
        return br >= 0 ? p.indexOf('>', br) + 1 : nl;
    }

    private FileStat fromText(FileType type, int from, int to) {
        if (to - from < 6) {
            return null;
        }
        // Read in place: the date reader ignores tag words, and the size reader steps over tags
        // and entities, so no row is copied.
        String text = page;
        IndexDates.Found date = IndexDates.find(text, from, to);
        long size = IndexSizes.after(text, date != null ? date.end() : from, to);
        if (date == null && size == IndexSizes.NONE) {
            return null;
        }
        FileStat.Builder b = FileStat.builder(type);
        if (date != null) {
            b.lastModified(date.instant(), date.precision());
        }
        if (size != IndexSizes.NONE && type == FileType.FILE) {
            if (size >= 0) {
                b.size(size);
            } else {
                b.approximateSize(-size - 1);
            }
        }
        return b.build();
    }

    static int indexOfIgnoreCase(String s, String needle, int from, int to) {
        int n = needle.length();
        for (int i = from; i + n <= to; i++) {
            if (s.regionMatches(true, i, needle, 0, n)) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOfIgnoreCase(String s, String needle, int from, int lowest) {
        int n = needle.length();
        for (int i = Math.min(from, s.length() - n); i >= lowest; i--) {
            if (s.regionMatches(true, i, needle, 0, n)) {
                return i;
            }
        }
        return -1;
    }
}
