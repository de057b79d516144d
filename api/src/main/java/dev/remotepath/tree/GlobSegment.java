package dev.remotepath.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One segment of a glob ({@code *}, {@code ?}, {@code [...]} classes, literals), matched against
 * one name without regular expressions. A regex such as {@code [^/]*-[^/]*-[^/]*-[^/]*-[^/]*}
 * backtracks polynomially (minutes for {@code *-*-*-*-*.txt} on a 250-character name); this
 * matcher uses the classic greedy algorithm that only ever backtracks to the last star, so a
 * match costs at most (name length x pattern length) steps and usually one pass.
 */
final class GlobSegment {

    private static final int LITERAL = 0;
    private static final int ANY_ONE = 1;
    private static final int STAR = 2;
    private static final int CLASS = 3;

    /** Token kinds, one per pattern position. */
    private final int[] kinds;
    /** The code point of a literal, or the index into {@link #classes}. */
    private final int[] values;
    private final CharClass[] classes;

    private GlobSegment(int[] kinds, int[] values, CharClass[] classes) {
        this.kinds = kinds;
        this.values = values;
        this.classes = classes;
    }

    /** A set of code points given as ranges, possibly negated. */
    private record CharClass(int[] ranges, boolean negated) {
        boolean contains(int cp) {
            boolean in = false;
            for (int i = 0; i < ranges.length; i += 2) {
                if (cp >= ranges[i] && cp <= ranges[i + 1]) {
                    in = true;
                    break;
                }
            }
            // A negated class, like '*' and '?', stays within one segment.
            return in != negated && !(negated && cp == '/');
        }
    }

    /** Compiles one segment of a glob (no '/' in it, braces already expanded). */
    static GlobSegment compile(String seg) {
        int[] kinds = new int[seg.length()];
        int[] values = new int[seg.length()];
        List<CharClass> classes = new ArrayList<>();
        int n = 0;
        for (int i = 0; i < seg.length(); ) {
            int c = seg.codePointAt(i);
            int width = Character.charCount(c);
            switch (c) {
                case '*' -> {
                    if (n == 0 || kinds[n - 1] != STAR) { // "**" inside a segment is one star
                        kinds[n++] = STAR;
                    }
                }
                case '?' -> kinds[n++] = ANY_ONE;
                case '\\' -> {
                    if (i + 1 < seg.length()) {
                        int escaped = seg.codePointAt(i + 1);
                        width += Character.charCount(escaped);
                        kinds[n] = LITERAL;
                        values[n++] = escaped;
                    } else {
                        kinds[n] = LITERAL;
                        values[n++] = '\\';
                    }
                }
                case '[' -> {
                    int close = Glob.classEnd(seg, i);
                    if (close < 0) {
                        kinds[n] = LITERAL;
                        values[n++] = '[';
                    } else {
                        classes.add(charClass(seg.substring(i + 1, close)));
                        kinds[n] = CLASS;
                        values[n++] = classes.size() - 1;
                        width = close + 1 - i;
                    }
                }
                default -> {
                    kinds[n] = LITERAL;
                    values[n++] = c;
                }
            }
            i += width;
        }
        return new GlobSegment(Arrays.copyOf(kinds, n), Arrays.copyOf(values, n), classes.toArray(CharClass[]::new));
    }

    private static CharClass charClass(String body) {
        int i = 0;
        boolean negated = !body.isEmpty() && (body.charAt(0) == '!' || body.charAt(0) == '^');
        if (negated) {
            i = 1;
        }
        int[] cps = body.substring(i).codePoints().toArray();
        int[] ranges = new int[cps.length * 2];
        int r = 0;
        for (int k = 0; k < cps.length; k++) {
            // '-' between two members is a range; first or last it is itself.
            if (k + 2 < cps.length && cps[k + 1] == '-' && k + 2 <= cps.length - 1) {
                int lo = cps[k];
                int hi = cps[k + 2];
                if (hi < lo) {
                    throw new IllegalArgumentException("malformed glob class [" + body + "]: range "
                            + Character.toString(lo) + "-" + Character.toString(hi) + " is reversed");
                }
                ranges[r++] = lo;
                ranges[r++] = hi;
                k += 2;
            } else {
                ranges[r++] = cps[k];
                ranges[r++] = cps[k];
            }
        }
        return new CharClass(Arrays.copyOf(ranges, r), negated);
    }

    /** Whether the whole of {@code name} matches this segment. */
    boolean matches(String name) {
        int p = 0;
        int s = 0;
        int starP = -1;
        int starS = -1;
        int len = name.length();
        while (s < len) {
            int cp = name.codePointAt(s);
            int width = Character.charCount(cp);
            if (p < kinds.length && kinds[p] != STAR && matchesOne(p, cp)) {
                p++;
                s += width;
            } else if (p < kinds.length && kinds[p] == STAR) {
                starP = p++;
                starS = s;
            } else if (starP >= 0 && name.codePointAt(starS) != '/') {
                // Let the last star take one more code point and retry what follows it.
                p = starP + 1;
                starS += Character.charCount(name.codePointAt(starS));
                s = starS;
            } else {
                return false;
            }
        }
        while (p < kinds.length && kinds[p] == STAR) {
            p++;
        }
        return p == kinds.length;
    }

    private boolean matchesOne(int p, int cp) {
        return switch (kinds[p]) {
            case LITERAL -> values[p] == cp;
            case ANY_ONE -> cp != '/';
            case CLASS -> classes[values[p]].contains(cp);
            default -> false;
        };
    }
}
