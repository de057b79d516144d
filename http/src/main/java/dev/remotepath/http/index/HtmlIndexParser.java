package dev.remotepath.http.index;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.NameBytes;
import dev.remotepath.spi.ListedEntry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

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

    private final byte[] page;
    private final int length;
    private final String directoryPath;
    private final String scheme;
    private final String authority;

    /**
     * @param page          the page's bytes, read one char per byte
     * @param length        how many of them hold the page
     * @param directoryPath the listed directory's decoded path, ending in '/'
     */
    HtmlIndexParser(byte[] page, int length, String directoryPath, String scheme, String authority) {
        this.page = page;
        this.length = length;
        this.directoryPath = directoryPath;
        this.scheme = scheme;
        this.authority = authority;
    }

    /** Set by {@link #parse}: the page links "." or ".." without a trailing slash. */
    private boolean directoriesUnmarked;

    boolean directoriesUnmarked() {
        return directoriesUnmarked;
    }

    /** Some date on the page said no zone (Apache, lighttpd, http-server show the server's local time). */
    private boolean timesInUnstatedZone;

    boolean timesInUnstatedZone() {
        return timesInUnstatedZone;
    }

    List<ListedEntry> parse() {
        List<ListedEntry> out = new ArrayList<>(Math.max(16, length / 64));
        String previous = null;
        int len = length;
        int a = nextLink(0, -1);
        while (a >= 0) {
            int current = a;
            int tagEnd = PageBytes.indexOf(page, (byte) '>', current, len);
            if (tagEnd < 0) {
                break;
            }
            boolean hasHref = findHref(current + 2, tagEnd);
            int hrefStart = this.hrefStart;
            int hrefEnd = this.hrefEnd;
            int close = indexOfCloseA(tagEnd + 1);
            int after = close < 0 ? tagEnd + 1 : PageBytes.indexOf(page, (byte) '>', close, len) + 1;
            if (after <= 0) {
                after = len;
            }
            // One pass finds where this row's text ends (a newline or the next link) and where the
            // next link starts, which begins the next turn.
            a = nextLink(after, after);
            int rowEnd = rowEndedByNewline ? this.rowEnd : nextRowStart(after, this.rowEnd);
            if (!hasHref) {
                continue;
            }
            int hrefLength = hrefEnd - hrefStart;
            if ((hrefLength == 1 && page[hrefStart] == '.')
                    || (hrefLength == 2 && page[hrefStart] == '.' && page[hrefStart + 1] == '.')) {
                directoriesUnmarked = true; // "." and ".." without their slash: so are the directories
                continue;
            }
            String name;
            boolean directory;
            if (isPlainChild(hrefStart, hrefEnd)) {
                directory = page[hrefEnd - 1] == '/';
                name = new String(page, hrefStart, (directory ? hrefEnd - 1 : hrefEnd) - hrefStart,
                        StandardCharsets.ISO_8859_1);
            } else {
                String href = hrefValue(hrefStart, hrefEnd);
                String segment = childSegment(href);
                if (segment == null) {
                    segment = literalSegment(href, tagEnd + 1, close < 0 ? tagEnd + 1 : close);
                }
                if (segment == null) {
                    continue;
                }
                directory = segment.endsWith("/");
                name = percentDecode(directory ? segment.substring(0, segment.length() - 1) : segment);
                if (name == null) {
                    continue;
                }
            }
            FileStat stat = metadata(directory ? FileType.DIRECTORY : FileType.FILE, current, after, rowEnd);
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

    /** Where the text after the last link ends: set by {@link #nextLink}. */
    private int rowEnd;
    /** Whether a newline ended it (one row per line: no row tag can hide inside). */
    private boolean rowEndedByNewline;

    /**
     * The next {@code <a} (any case) followed by white space, at or after {@code from}, or -1.
     * When {@code rowFrom} is not negative, also sets {@link #rowEnd} to the first newline after
     * it, or to the link when that comes first (or the page's end).
     */
    private int nextLink(int from, int rowFrom) {
        int i = from;
        int end = -1;
        while (true) {
            i = rowFrom < 0 || end >= 0
                    ? PageBytes.indexOfPairIgnoreCase(page, (byte) '<', (byte) 'a', i, length)
                    : PageBytes.indexOfNewlineOrPairIgnoreCase(page, (byte) '<', (byte) 'a', i, length);
            if (i >= 0 && page[i] == '\n') {
                end = i;
                i++;
                continue;
            }
            if (i < 0 || i + 2 >= length) {
                rowEnd = end >= 0 ? end : length;
                rowEndedByNewline = end >= 0;
                return -1;
            }
            byte d = page[i + 2];
            if (d == ' ' || d == '\t' || d == '\n' || d == '\r') {
                rowEnd = end >= 0 ? end : i;
                rowEndedByNewline = end >= 0;
                return i;
            }
            i += 2;
        }
    }

    /** The next "</a" (any case) at or after {@code from}. */
    private int indexOfCloseA(int from) {
        int i = from;
        while (true) {
            i = PageBytes.indexOfPairIgnoreCase(page, (byte) '/', (byte) 'a', i, length);
            if (i < 0) {
                return -1;
            }
            if (i > from && page[i - 1] == '<') {
                return i - 1;
            }
            i++;
        }
    }

    /** The bounds of the last href value found by {@link #findHref}. */
    private int hrefStart;
    private int hrefEnd;

    /** Finds the href attribute's raw value in {@code page[from, to)}; false when there is none. */
    private boolean findHref(int from, int to) {
        byte[] p = page;
        int i = from;
        while (i < to) {
            int h = indexOfHref(p, i, to);
            if (h < 0) {
                return false;
            }
            int k = h + 4;
            byte before = p[h - 1];
            if (before != ' ' && before != '\t' && before != '\n' && before != '\r') {
                i = k;
                continue;
            }
            while (k < to && p[k] == ' ') {
                k++;
            }
            if (k >= to || p[k] != '=') {
                i = k;
                continue;
            }
            k++;
            while (k < to && p[k] == ' ') {
                k++;
            }
            if (k >= to) {
                return false;
            }
            byte q = p[k];
            if (q == '"' || q == '\'') {
                hrefStart = k + 1;
                hrefEnd = PageBytes.indexOf(p, q, hrefStart, to);
                return hrefEnd >= 0;
            }
            hrefStart = k;
            hrefEnd = k;
            while (hrefEnd < to && p[hrefEnd] != ' ' && p[hrefEnd] != '>') {
                hrefEnd++;
            }
            return true;
        }
        return false;
    }

    /** The entity-decoded href in {@code page[start, end)}. */
    private String hrefValue(int start, int end) {
        String value = new String(page, start, end - start, StandardCharsets.ISO_8859_1);
        return value.indexOf('&') < 0 ? value : Entities.decode(value, 0, value.length());
    }

    /** Bytes that may appear in an href that names a child as it stands: no decoding, no resolving. */
    private static final boolean[] PLAIN = new boolean[128];

    static {
        for (int c = 0x21; c < 0x7f; c++) {
            PLAIN[c] = "/:?#%&\\\"'<>".indexOf(c) < 0;
        }
    }

    /**
     * True when {@code page[start, end)} is a plain relative child name (printable ASCII without
     * any character that needs decoding or resolving, optionally ending in '/', not starting with
     * '.'), the common case that needs none of {@link #childSegment}'s work.
     */
    private boolean isPlainChild(int start, int end) {
        byte[] p = page;
        int last = end > start && p[end - 1] == '/' ? end - 1 : end;
        if (last <= start || p[start] == '.') {
            return false;
        }
        for (int i = start; i < last; i++) {
            int c = p[i];
            if (c < 0 || !PLAIN[c]) {
                return false;
            }
        }
        return true;
    }

    /** The next "href" (any case) in [from, to). */
    private static int indexOfHref(byte[] p, int from, int to) {
        for (int i = from; i + 4 <= to; i++) {
            if ((p[i] | 0x20) == 'h' && PageBytes.regionMatchesIgnoreCase(p, i + 1, to, "ref")) {
                return i;
            }
        }
        return -1;
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

    /**
     * An href holding a raw '#' or '?' that the server meant as part of the name (npm serve:
     * {@code href="/d/hash#.txt"}), recognised by the link's text being exactly that name; the
     * segment as {@link #childSegment} gives it (encoded, so '#' becomes %23), or null. Sort
     * links ({@code ?C=N;O=D}, text "Name") and fragments do not pass.
     */
    private String literalSegment(String href, int textFrom, int textTo) {
        String h = href.strip();
        if ((h.indexOf('#') < 1 && h.indexOf('?') < 1) || textTo <= textFrom) {
            return null;
        }
        while (h.startsWith("./")) {
            h = h.substring(2);
        }
        if (h.startsWith("/")) {
            if (!h.startsWith(directoryPath)) {
                return null;
            }
            h = h.substring(directoryPath.length());
        }
        boolean directory = h.endsWith("/");
        String raw = directory ? h.substring(0, h.length() - 1) : h;
        if (raw.isEmpty() || raw.indexOf('/') >= 0) {
            return null;
        }
        String text = new String(page, textFrom, textTo - textFrom, StandardCharsets.ISO_8859_1).strip();
        if (text.indexOf('<') >= 0) {
            return null;
        }
        text = Entities.decode(text, 0, text.length());
        if (text.endsWith("/")) {
            text = text.substring(0, text.length() - 1);
        }
        String shown = NameBytes.decode(text.getBytes(StandardCharsets.ISO_8859_1));
        // The '#' and '?' as part of the name, with the href's escapes honoured or (a server
        // that encodes nothing) its '%' literal too.
        String escaped = raw.replace("#", "%23").replace("?", "%3F");
        String literal = raw.replace("%", "%25").replace("#", "%23").replace("?", "%3F");
        for (String candidate : new String[] {escaped, literal}) {
            String name = percentDecode(candidate);
            if (name != null && name.equals(shown)) {
                return candidate + (directory ? "/" : "");
            }
        }
        return null;
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

    /** Size and date from the row's text after the link (up to {@code rowEnd}), or before it (IIS). */
    private FileStat metadata(FileType type, int linkStart, int afterLink, int rowEnd) {
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

    /** Where the next table row or list item begins before {@code rowEnd}: this row's text ends there. */
    private int nextRowStart(int from, int rowEnd) {
        for (int i = from; i < rowEnd; i++) {
            if (page[i] == '<' && isRowTag(i)) {
                return i;
            }
        }
        return rowEnd;
    }

    /** {@code <tr} or {@code <li} (any case) at {@code i}, which holds a '<': a row's start. One pass, no allocation. */
    private boolean isRowTag(int i) {
        if (i + 3 > length) {
            return false;
        }
        int a = page[i + 1] | 0x20;
        int b = page[i + 2] | 0x20;
        return a == 't' && b == 'r' || a == 'l' && b == 'i';
    }

    private int rowStart(int linkStart) {
        int nl = PageBytes.lastIndexOf(page, (byte) '\n', linkStart - 1, 0) + 1;
        int br = lastIndexOfIgnoreCase(page, "<br", linkStart - 1, nl);
        int start = br >= 0 ? PageBytes.indexOf(page, (byte) '>', br, length) + 1 : nl;
        // A page on one line (minified) still has rows: a table row or list item begins one, so
        // another row's size or date is never taken for this link's.
        for (int i = linkStart - 1; i >= start; i--) {
            if (page[i] == '<' && isRowTag(i)) {
                return i;
            }
        }
        return start;
    }

    private FileStat fromText(FileType type, int from, int to) {
        if (to - from < 6) {
            return null;
        }
        // Read in place: the date reader ignores tag words, and the size reader steps over tags
        // and entities, so no row is copied.
        IndexDates.Found date = IndexDates.find(page, PageBytes.skipSpaces(page, from, to), to);
        long size = IndexSizes.after(page, date != null ? PageBytes.skipSpaces(page, date.end(), to) : from, to);
        if (size == IndexSizes.NONE && date != null) {
            // The size column may come first (name, size, date; or size, date, name): the text's
            // first token, before the date.
            size = IndexSizes.after(page, PageBytes.skipSpaces(page, from, to), to);
        }
        if (date != null && !date.zoneStated()) {
            timesInUnstatedZone = true;
        }
        if (date == null && size == IndexSizes.NONE) {
            return null;
        }
        OptionalLong bytes = OptionalLong.empty();
        boolean exact = true;
        if (size != IndexSizes.NONE && type == FileType.FILE) {
            bytes = OptionalLong.of(size >= 0 ? size : -size - 1);
            exact = size >= 0;
        }
        return FileStat.listed(type, bytes, exact, date == null ? Optional.empty() : Optional.of(date.instant()),
                date == null ? FileStat.EXACT : date.precision(), Optional.empty());
    }

    private static int lastIndexOfIgnoreCase(byte[] s, String lower, int from, int lowest) {
        for (int i = Math.min(from, s.length - lower.length()); i >= lowest; i--) {
            if (PageBytes.regionMatchesIgnoreCase(s, i, s.length, lower)) {
                return i;
            }
        }
        return -1;
    }
}
