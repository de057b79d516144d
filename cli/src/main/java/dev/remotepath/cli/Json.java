package dev.remotepath.cli;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The CLI's JSON: ordered objects written on one line, no dependency. */
final class Json {

    private Json() {
    }

    /** A JSON object builder that keeps insertion order. */
    static final class Obj {
        private final Map<String, Object> fields = new LinkedHashMap<>();

        Obj put(String key, Object value) {
            fields.put(key, value);
            return this;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            write(sb, fields);
            return sb.toString();
        }
    }

    static Obj obj() {
        return new Obj();
    }

    /** The object {@code ls --json} prints for an entry: name, type, size (files only), mtime. */
    static Obj entry(String name, FileStat stat) {
        Obj o = obj().put("name", name)
                .put("type", stat.type().label())
                .put("size", stat.type() == FileType.FILE && stat.size().isPresent() ? stat.size().getAsLong() : null)
                .put("mtime", stat.lastModified().map(Text::instant).orElse(null));
        if (stat.storedAt().isPresent()) {
            o.put("storedAt", Text.instant(stat.storedAt().get())); // S3: when the object was stored, not its mtime
        }
        return o;
    }

    static Obj entry(DirEntry e) {
        return entry(e.name(), e.stat());
    }

    /**
     * Writes {@code v} as JSON. An instanceof chain, not a switch on its type: a type switch is
     * bootstrapped by invokedynamic, a class spun (~4 ms) in every fresh {@code --json} command.
     */
    static void write(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            quote(sb, s);
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Obj o) {
            write(sb, o.fields);
        } else if (v instanceof Map<?, ?> m) {
            sb.append('{');
            Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                quote(sb, e.getKey().toString());
                sb.append(':');
                write(sb, e.getValue());
                if (it.hasNext()) {
                    sb.append(',');
                }
            }
            sb.append('}');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                write(sb, l.get(i));
            }
            sb.append(']');
        } else {
            quote(sb, v.toString());
        }
    }

    static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c) && !validPair(s, i)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** Lone surrogates (escaped raw bytes of non-UTF-8 names) must be written as \\u escapes. */
    private static boolean validPair(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
