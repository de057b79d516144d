package dev.remotepath.http.index;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.spi.ListedEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a directory index page into entries, choosing the reader by content type: JSON (nginx
 * or Caddy), XML (nginx), or HTML (every other server, including unknown ones, whose links
 * alone still list the directory). Only direct children of the listed directory are returned;
 * names are decoded exactly and validated later by the api like every backend's names.
 */
public final class IndexPageParser {

    private IndexPageParser() {
    }

    /**
     * @param body          the page's bytes
     * @param contentType   the response's Content-Type (may be empty)
     * @param directoryPath the listed directory's decoded path, ending in '/'
     * @param scheme        http or https, for resolving absolute links
     * @param authority     host[:port] of the page, for resolving absolute links
     * @param where         the page's URI, for error messages
     * @throws NotDirectoryException when the response is not an index page at all
     * @throws FileSystemException   when a JSON or XML listing is malformed
     */
    public static IndexPage parse(byte[] body, int length, String contentType, String directoryPath, String scheme,
            String authority, String where) throws FileSystemException {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (type.contains("json")) {
            return json(new String(body, 0, length, StandardCharsets.UTF_8), where);
        }
        if (type.contains("xml") && !type.contains("xhtml")) {
            return new IndexPage(IndexPage.Format.NGINX_XML, XmlIndexParser.parse(new String(body, 0, length,
                    StandardCharsets.UTF_8), where));
        }
        if (!type.isEmpty() && !type.contains("html")) {
            throw new NotDirectoryException(where + " (the server answered " + contentType + ", not an index page)");
        }
        HtmlIndexParser html = new HtmlIndexParser(body, length, directoryPath, scheme, authority);
        List<ListedEntry> entries = html.parse();
        return new IndexPage(IndexPage.Format.HTML, entries, html.directoriesUnmarked(), html.timesInUnstatedZone());
    }

    /** Keys under which JSON listings name an entry, in the order they are trusted. */
    private static final List<String> NAME_KEYS = List.of("base", "name", "filename", "file", "title");
    /** Keys under which an object holds its entries ({@code serve}'s {@code {"files": [...]}}). */
    private static final List<String> LIST_KEYS = List.of("files", "entries", "items", "children", "contents", "list");

    /**
     * A JSON listing: an array of entries (nginx, Caddy), or an object holding one under a key
     * such as {@code files} ({@code serve}). Each entry names itself ({@code base} before
     * {@code name}: {@code serve}'s {@code name} drops the extension; else the last segment of
     * {@code relative}, {@code path} or {@code href}) and may say its type ({@code is_dir},
     * {@code isDirectory}, {@code type} directory/dir/folder, a name ending in {@code /}), size
     * (a number, exact; text such as {@code "1.4 MB"}, rounded) and time.
     */
    private static IndexPage json(String text, String where) throws FileSystemException {
        Object root;
        try {
            root = MiniJson.parse(text);
        } catch (IllegalArgumentException e) {
            throw new FileSystemException(where, null, "index listing is not valid JSON: " + e.getMessage());
        }
        List<?> items = entriesOf(root);
        if (items == null) {
            throw new FileSystemException(where, null, "index listing JSON is neither an array of entries nor an "
                    + "object holding one (under " + LIST_KEYS + ")");
        }
        List<ListedEntry> out = new ArrayList<>(items.size());
        boolean caddy = false;
        for (Object o : items) {
            if (!(o instanceof Map<?, ?> m)) {
                throw new FileSystemException(where, null, "index listing JSON has an entry that is not an object");
            }
            String name = nameOf(m);
            if (name == null) {
                throw new FileSystemException(where, null, "index listing JSON has an entry without a name");
            }
            if (name.equals(".") || name.equals("./") || name.equals("..") || name.equals("../")) {
                continue; // the page's own and its parent's entries (serve lists "../")
            }
            caddy |= m.containsKey("is_dir") || m.containsKey("mod_time");
            Object type = m.get("type");
            boolean dir = Boolean.TRUE.equals(m.get("is_dir")) || Boolean.TRUE.equals(m.get("isDir"))
                    || Boolean.TRUE.equals(m.get("isDirectory")) || Boolean.TRUE.equals(m.get("directory"))
                    || (type instanceof String ts && (ts.equalsIgnoreCase("directory") || ts.equalsIgnoreCase("dir")
                            || ts.equalsIgnoreCase("folder")))
                    || (name.endsWith("/") && name.length() > 1);
            boolean other = "other".equals(type);
            FileType t = dir ? FileType.DIRECTORY : other ? FileType.OTHER : FileType.FILE;
            FileStat.Builder b = FileStat.builder(t);
            Object size = m.get("size");
            if (t == FileType.FILE && size instanceof Long exact && exact >= 0) {
                b.size(exact);
            } else if (t == FileType.FILE && size instanceof String shown) {
                long token = IndexSizes.parse(shown);
                if (token != IndexSizes.NONE) {
                    if (token >= 0) {
                        b.size(token);
                    } else {
                        b.approximateSize(-token - 1);
                    }
                }
            }
            Object mtime = m.containsKey("mod_time") ? m.get("mod_time") : m.containsKey("mtime") ? m.get("mtime")
                    : m.containsKey("modified") ? m.get("modified") : m.get("lastModified");
            if (mtime instanceof String ms) {
                IndexDates.Found d = IndexDates.parse(ms);
                if (d != null) {
                    // Caddy writes Go's RFC3339Nano, which drops trailing zeros: "13:37:42Z" is
                    // exact to the nanosecond, not a seconds-only stamp.
                    b.lastModified(d.instant(), m.containsKey("mod_time") ? FileStat.EXACT : d.precision());
                }
            }
            if (name.endsWith("/") && dir) {
                name = name.substring(0, name.length() - 1); // Caddy and serve name directories "x/"
            }
            out.add(new ListedEntry(name, b.build()));
        }
        return new IndexPage(caddy ? IndexPage.Format.CADDY_JSON : IndexPage.Format.NGINX_JSON, out);
    }

    /** The entries of a listing: the root array, or the one array of objects an object holds. */
    private static List<?> entriesOf(Object root) {
        if (root instanceof List<?> l) {
            return l;
        }
        if (root instanceof Map<?, ?> m) {
            for (String key : LIST_KEYS) {
                if (m.get(key) instanceof List<?> l) {
                    return l;
                }
            }
        }
        return null;
    }

    private static String nameOf(Map<?, ?> m) {
        for (String key : NAME_KEYS) {
            if (m.get(key) instanceof String s && !s.isEmpty()) {
                return s;
            }
        }
        for (String key : List.of("relative", "path", "href", "url")) {
            if (m.get(key) instanceof String s && !s.isEmpty()) {
                String trimmed = s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
                String last = trimmed.substring(trimmed.lastIndexOf('/') + 1);
                if (!last.isEmpty()) {
                    return s.endsWith("/") ? last + "/" : last;
                }
            }
        }
        return null;
    }
}
