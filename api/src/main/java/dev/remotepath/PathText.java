package dev.remotepath;

import java.nio.file.InvalidPathException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The text of paths, apart from any file system: normalizing, joining, splitting into segments
 * and names into suffixes. {@link RemotePath}'s pure operations are these on its normalized
 * string ("/" or "/a/b" absolute, "" or "a/b" or "../a" relative); nothing here touches storage.
 */
final class PathText {

    private PathText() {
    }

    /**
     * RFC 3986 dot-segment removal, not POSIX: empty and {@code .} segments go, {@code a/..}
     * cancels out, {@code ..} above the root stays at the root (kept in a relative path).
     *
     * @throws InvalidPathException if the path contains NUL
     */
    static String normalize(String input) {
        if (input.indexOf('\0') >= 0) {
            throw new InvalidPathException(input.replace("\0", "\\0"), "path contains NUL");
        }
        boolean absolute = input.startsWith("/");
        List<String> out = new ArrayList<>();
        for (String seg : input.split("/")) {
            if (seg.isEmpty() || seg.equals(".")) {
                continue;
            }
            if (seg.equals("..")) {
                if (!out.isEmpty() && !out.getLast().equals("..")) {
                    out.removeLast();
                } else if (!absolute) {
                    out.add(seg);
                }
                continue;
            }
            out.add(seg);
        }
        String joined = String.join("/", out);
        return absolute ? "/" + joined : joined;
    }

    /** A normalized directory and one safe name joined. */
    static String joined(String dir, String name) {
        return dir.isEmpty() ? name : dir.equals("/") ? "/" + name : dir + "/" + name;
    }

    /** The last segment; empty for the root and the empty relative path. */
    static String lastSegment(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }

    /** The segments without the root: {@code /a/b} gives {@code [a, b]}. */
    static List<String> parts(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.isEmpty() ? List.of() : List.of(p.split("/"));
    }

    /** {@code others} joined onto {@code base}, normalized; an absolute one restarts from the root. */
    static String resolved(String base, String... others) {
        StringBuilder sb = new StringBuilder(base);
        for (String other : others) {
            if (other.startsWith("/")) {
                sb.setLength(0);
            } else if (!sb.isEmpty() && sb.charAt(sb.length() - 1) != '/') {
                sb.append('/');
            }
            sb.append(other);
        }
        return normalize(sb.toString());
    }

    /** The relative path from segments {@code from} to segments {@code to}: {@code ..} up to their common part, then down. */
    static String relative(List<String> from, List<String> to) {
        int common = 0;
        while (common < from.size() && common < to.size() && from.get(common).equals(to.get(common))) {
            common++;
        }
        List<String> out = new ArrayList<>();
        for (int i = common; i < from.size(); i++) {
            out.add("..");
        }
        out.addAll(to.subList(common, to.size()));
        return String.join("/", out);
    }

    /** Segment by segment, a prefix first: a directory sorts before its children. */
    static int compareSegments(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** The final suffix of a name including its dot ({@code .gz} of {@code a.tar.gz}); empty if none. */
    static String suffix(String name) {
        int dot = name.lastIndexOf('.');
        return dot <= 0 || dot == name.length() - 1 ? "" : name.substring(dot);
    }

    /** All suffixes of a name ({@code [.tar, .gz]} of {@code a.tar.gz}); a hidden name's leading dots are none. */
    static List<String> suffixes(String name) {
        if (name.endsWith(".")) {
            return List.of();
        }
        String rest = name.replaceFirst("^\\.+", "");
        int first = rest.indexOf('.');
        if (first < 0) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String s : rest.substring(first + 1).split("\\.", -1)) {
            out.add("." + s);
        }
        return Collections.unmodifiableList(out);
    }
}
