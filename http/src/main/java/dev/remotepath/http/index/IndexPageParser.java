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
        return new IndexPage(IndexPage.Format.HTML, new HtmlIndexParser(body, length, directoryPath, scheme, authority).parse());
    }

    private static IndexPage json(String text, String where) throws FileSystemException {
        Object root;
        try {
            root = MiniJson.parse(text);
        } catch (IllegalArgumentException e) {
            throw new FileSystemException(where, null, "index listing is not valid JSON: " + e.getMessage());
        }
        if (!(root instanceof List<?> items)) {
            throw new FileSystemException(where, null, "index listing JSON is not an array");
        }
        List<ListedEntry> out = new ArrayList<>(items.size());
        boolean caddy = false;
        for (Object o : items) {
            if (!(o instanceof Map<?, ?> m) || !(m.get("name") instanceof String name)) {
                throw new FileSystemException(where, null, "index listing JSON has an entry without a name");
            }
            caddy |= m.containsKey("is_dir") || m.containsKey("mod_time");
            boolean dir = Boolean.TRUE.equals(m.get("is_dir")) || "directory".equals(m.get("type"));
            boolean other = "other".equals(m.get("type"));
            FileType t = dir ? FileType.DIRECTORY : other ? FileType.OTHER : FileType.FILE;
            FileStat.Builder b = FileStat.builder(t);
            if (t == FileType.FILE && m.get("size") instanceof Long size && size >= 0) {
                b.size(size);
            }
            Object mtime = m.containsKey("mod_time") ? m.get("mod_time") : m.get("mtime");
            if (mtime instanceof String ms) {
                IndexDates.Found d = IndexDates.parse(ms);
                if (d != null) {
                    // Caddy writes Go's RFC3339Nano, which drops trailing zeros: "13:37:42Z" is
                    // exact to the nanosecond, not a seconds-only stamp.
                    b.lastModified(d.instant(), m.containsKey("mod_time") ? FileStat.EXACT : d.precision());
                }
            }
            if (name.endsWith("/") && dir) {
                name = name.substring(0, name.length() - 1); // Caddy names directories "x/"
            }
            out.add(new ListedEntry(name, b.build()));
        }
        return new IndexPage(caddy ? IndexPage.Format.CADDY_JSON : IndexPage.Format.NGINX_JSON, out);
    }
}
