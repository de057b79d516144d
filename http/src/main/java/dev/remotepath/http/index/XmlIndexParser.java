package dev.remotepath.http.index;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.spi.ListedEntry;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.List;

/**
 * nginx's {@code autoindex_format xml}: {@code <directory mtime="...">name</directory>},
 * {@code <file mtime="..." size="N">name</file>}, {@code <other ...>}. A scanner, not an XML
 * parser: no DTDs, no external entities, nothing to exploit.
 */
final class XmlIndexParser {

    private XmlIndexParser() {
    }

    static List<ListedEntry> parse(String xml, String where) throws FileSystemException {
        List<ListedEntry> out = new ArrayList<>();
        int i = 0;
        while (true) {
            int lt = xml.indexOf('<', i);
            if (lt < 0) {
                return out;
            }
            int gt = xml.indexOf('>', lt);
            if (gt < 0) {
                throw new FileSystemException(where, null, "index listing XML is truncated");
            }
            String tag = xml.substring(lt + 1, gt);
            String element = tag.split("[\\s/]", 2)[0];
            FileType type = switch (element) {
                case "directory" -> FileType.DIRECTORY;
                case "file" -> FileType.FILE;
                case "other" -> FileType.OTHER;
                default -> null;
            };
            i = gt + 1;
            if (type == null) {
                continue;
            }
            int close = xml.indexOf("</" + element + ">", i);
            if (close < 0) {
                throw new FileSystemException(where, null, "index listing XML has an unclosed <" + element + ">");
            }
            String name = Entities.decodeText(xml, i, close);
            i = close + element.length() + 3;
            FileStat.Builder b = FileStat.builder(type);
            String size = attribute(tag, "size");
            if (size != null && type == FileType.FILE) {
                try {
                    b.size(Long.parseLong(size));
                } catch (NumberFormatException e) {
                    // leave the size unknown
                }
            }
            IndexDates.Found d = IndexDates.parse(attribute(tag, "mtime"));
            if (d != null) {
                b.lastModified(d.instant(), d.precision());
            }
            out.add(new ListedEntry(name, b.build()));
        }
    }

    private static String attribute(String tag, String name) {
        int at = tag.indexOf(" " + name + "=\"");
        if (at < 0) {
            return null;
        }
        int start = at + name.length() + 3;
        int end = tag.indexOf('"', start);
        return end < 0 ? null : tag.substring(start, end);
    }
}
