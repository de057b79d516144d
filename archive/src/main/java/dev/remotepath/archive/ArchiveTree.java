package dev.remotepath.archive;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The directory tree an archive's entry names describe. Names are split at '/' and kept as they
 * are, hostile parts included: an entry {@code a/../../x} puts a directory {@code ..} in
 * {@code a}, and {@code /etc/passwd} an empty name in the root. The api refuses such names in
 * every listing ({@link dev.remotepath.EntryNames}), so the directory holding one is an error
 * for a walk or sync, not a write outside its target, and no name is silently dropped or
 * rewritten. A name listed twice (two entries, or a file and a directory of one name) is listed
 * twice, which the api refuses too, and stays ambiguous to look up.
 */
final class ArchiveTree {

    /** A directory, explicit (an entry {@code name/}) or implied by the names below it. */
    static final class Dir {
        final Map<String, Object> children = new LinkedHashMap<>(); // Dir or ArchiveEntry
        /** Names seen more than once here (listed once more each: one repeat is enough to be refused). */
        final Set<String> repeated = new HashSet<>(0);
        /** The entry that declared this directory, or null when it is implied. */
        ArchiveEntry record;

        boolean isAmbiguous(String name) {
            return repeated.contains(name);
        }
    }

    final Dir root = new Dir();

    ArchiveTree(List<? extends ArchiveEntry> entries) {
        for (ArchiveEntry e : entries) {
            add(e);
        }
    }

    private void add(ArchiveEntry e) {
        String name = e.name().endsWith("/") ? e.name().substring(0, e.name().length() - 1) : e.name();
        // "./a" is how tar (and some zip tools) name what they were given as "."; only a leading
        // "./" is that convention; a "." anywhere else stays, and is refused as a name
        while (name.startsWith("./")) {
            name = name.substring(2);
        }
        if (name.equals(".")) {
            return; // the root itself
        }
        String[] parts = name.split("/", -1);
        Dir dir = root;
        for (int i = 0; i < parts.length - 1; i++) {
            dir = subdirectory(dir, parts[i]);
        }
        String last = parts[parts.length - 1];
        if (e.type() == dev.remotepath.FileType.DIRECTORY) {
            Dir d = subdirectory(dir, last);
            if (d.record != null) {
                dir.repeated.add(last); // the same directory declared twice: as ambiguous as two files
            }
            d.record = e;
        } else {
            if (dir.children.putIfAbsent(last, e) != null) {
                dir.repeated.add(last);
            }
        }
    }

    /** The directory {@code name} in {@code dir}, made if absent; a file of that name makes it ambiguous. */
    private static Dir subdirectory(Dir dir, String name) {
        Object child = dir.children.get(name);
        if (child instanceof Dir d) {
            return d;
        }
        Dir made = new Dir();
        if (child != null) { // a file and a directory of one name: both listed, neither found
            dir.repeated.add(name);
        }
        dir.children.put(name, made);
        return made;
    }
}
