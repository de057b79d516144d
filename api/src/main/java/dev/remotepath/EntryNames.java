package dev.remotepath;

/**
 * The one place that decides whether a name is a safe single path segment. Used on every
 * name a listing returns and on names a caller passes to {@link RemotePath#withName}.
 */
public final class EntryNames {

    private EntryNames() {
    }

    /**
     * Why {@code name} is not a safe segment, or {@code null} when it is. (Package-internal
     * style helper: returns null rather than Optional because it runs once per listed entry.)
     */
    static String problem(String name) {
        if (name.isEmpty()) {
            return "empty name";
        }
        if (name.equals(".") || name.equals("..")) {
            return "relative segment";
        }
        if (name.indexOf('/') >= 0) {
            return "contains '/'";
        }
        if (name.indexOf('\0') >= 0) {
            return "contains NUL";
        }
        return null;
    }

    /** True when {@code name} can stand as one segment of a path. */
    public static boolean isSafe(String name) {
        return problem(name) == null;
    }

    /**
     * Returns {@code name} if it is a safe segment.
     *
     * @throws UnsafeNameException naming the directory and the name otherwise
     */
    public static String requireSafe(String directory, String name) throws UnsafeNameException {
        String problem = problem(name);
        if (problem != null) {
            throw new UnsafeNameException(directory, name, problem);
        }
        return name;
    }

    /** A name quoted for an error message, with control characters escaped. */
    static String quote(String name) {
        StringBuilder sb = new StringBuilder(name.length() + 2).append('\'');
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('\'').toString();
    }
}
