package dev.remotepath.tree;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.WalkOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A compiled glob over '/'-separated paths: {@code *} and {@code ?} within one segment,
 * {@code [abc]}, {@code [a-z]} and {@code [!x]} classes, {@code {a,b}} alternatives (which may
 * hold '/'), {@code **} as a whole segment for zero or more segments, and {@code \} to escape.
 * {@code *} matches names starting with a dot, as in pathlib and rclone. Matching a name costs
 * at most its length times the segment's length ({@link GlobSegment}), never exponential time.
 */
public final class Glob {

    /** Brace expansion beyond this many alternatives is refused rather than exploding. */
    static final int MAX_ALTERNATIVES = 1024;

    private static final Object ANY_SEGMENTS = new Object();

    private final String source;
    private final boolean absolute;
    /** One list per brace alternative; each element is {@link #ANY_SEGMENTS} or a {@link GlobSegment}. */
    private final List<List<Object>> alternatives;

    private Glob(String source, boolean absolute, List<List<Object>> alternatives) {
        this.source = source;
        this.absolute = absolute;
        this.alternatives = alternatives;
    }

    /**
     * Compiles a glob.
     *
     * @throws IllegalArgumentException for an empty or malformed pattern, naming it
     */
    public static Glob compile(String glob) {
        if (glob.isEmpty()) {
            throw new IllegalArgumentException("empty glob pattern");
        }
        List<String> expanded = new ArrayList<>();
        expandBraces(glob, expanded);
        List<List<Object>> alts = new ArrayList<>();
        for (String alt : expanded) {
            List<Object> segs = new ArrayList<>();
            for (String seg : alt.split("/")) {
                if (seg.isEmpty()) {
                    continue;
                }
                if (seg.equals("**")) {
                    if (segs.isEmpty() || segs.getLast() != ANY_SEGMENTS) {
                        segs.add(ANY_SEGMENTS);
                    }
                } else {
                    segs.add(segment(seg, glob));
                }
            }
            alts.add(segs);
        }
        return new Glob(glob, glob.startsWith("/"), alts);
    }

    /** The pattern as written. */
    @Override
    public String toString() {
        return source;
    }

    /** True when the pattern starts with '/', so it must match a path from its root. */
    public boolean isAbsolute() {
        return absolute;
    }

    /** Whether the relative path made of {@code segments} matches the whole pattern. */
    public boolean matches(List<String> segments) {
        for (List<Object> alt : alternatives) {
            if (match(alt, 0, segments, 0)) {
                return true;
            }
        }
        return false;
    }

    /** Whether some path strictly below the directory {@code segments} could match: for pruning walks. */
    public boolean couldMatchBelow(List<String> segments) {
        for (List<Object> alt : alternatives) {
            if (prefix(alt, 0, segments, 0)) {
                return true;
            }
        }
        return false;
    }

    /** pathlib's {@code match}: a relative pattern matches any tail of the path, an absolute one all of it. */
    public boolean matchesFromRight(List<String> segments, boolean pathIsAbsolute) {
        if (absolute) {
            return pathIsAbsolute && matches(segments);
        }
        for (int start = segments.size() - 1; start >= 0; start--) {
            if (matches(segments.subList(start, segments.size()))) {
                return true;
            }
        }
        return false;
    }

    /** Entries below {@code root} whose path relative to it matches; lazily, pruning what cannot match. */
    public Stream<DirEntry> find(RemotePath root) throws IOException {
        int depth = maxDepth();
        return TreeWalker.stream(root, WalkOptions.defaults().withMaxDepth(depth),
                        dir -> couldMatchBelow(root.relativize(dir).parts()))
                .filter(e -> matches(root.relativize(e.path()).parts()));
    }

    /** The deepest a match can lie below the start, or {@link Integer#MAX_VALUE} with {@code **}. */
    public int maxDepth() {
        int max = 1;
        for (List<Object> alt : alternatives) {
            if (alt.contains(ANY_SEGMENTS)) {
                return Integer.MAX_VALUE;
            }
            max = Math.max(max, alt.size());
        }
        return max;
    }

    private static boolean match(List<Object> pat, int pi, List<String> segs, int si) {
        while (true) {
            if (pi == pat.size()) {
                return si == segs.size();
            }
            Object p = pat.get(pi);
            if (p == ANY_SEGMENTS) {
                for (int k = si; k <= segs.size(); k++) {
                    if (match(pat, pi + 1, segs, k)) {
                        return true;
                    }
                }
                return false;
            }
            if (si == segs.size() || !((GlobSegment) p).matches(segs.get(si))) {
                return false;
            }
            pi++;
            si++;
        }
    }

    private static boolean prefix(List<Object> pat, int pi, List<String> segs, int si) {
        while (true) {
            if (si == segs.size()) {
                return pi < pat.size();
            }
            if (pi == pat.size()) {
                return false;
            }
            Object p = pat.get(pi);
            if (p == ANY_SEGMENTS) {
                return true;
            }
            if (!((GlobSegment) p).matches(segs.get(si))) {
                return false;
            }
            pi++;
            si++;
        }
    }

    private static void expandBraces(String glob, List<String> out) {
        int open = -1;
        int depth = 0;
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                int close = classEnd(glob, i);
                if (close > 0) {
                    i = close;
                }
            } else if (c == '{') {
                if (depth++ == 0) {
                    open = i;
                }
            } else if (c == '}' && depth > 0) {
                if (--depth == 0) {
                    List<String> options = splitTopLevel(glob.substring(open + 1, i));
                    for (String option : options) {
                        expandBraces(glob.substring(0, open) + option + glob.substring(i + 1), out);
                        if (out.size() > MAX_ALTERNATIVES) {
                            throw new IllegalArgumentException("glob '" + glob + "' expands to more than "
                                    + MAX_ALTERNATIVES + " alternatives");
                        }
                    }
                    return;
                }
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("unclosed '{' in glob '" + glob + "'");
        }
        out.add(glob);
    }

    private static List<String> splitTopLevel(String body) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(body.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(body.substring(start));
        return parts;
    }

    /** Index of the ']' closing a class opened at {@code open}, or -1 if it is a literal '['. */
    static int classEnd(String s, int open) {
        int i = open + 1;
        if (i < s.length() && (s.charAt(i) == '!' || s.charAt(i) == '^')) {
            i++;
        }
        if (i < s.length() && s.charAt(i) == ']') {
            i++;
        }
        for (; i < s.length(); i++) {
            if (s.charAt(i) == ']') {
                return i;
            }
            if (s.charAt(i) == '/') {
                return -1;
            }
        }
        return -1;
    }

    private static GlobSegment segment(String seg, String whole) {
        try {
            return GlobSegment.compile(seg);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed glob '" + whole + "': " + e.getMessage());
        }
    }
}
