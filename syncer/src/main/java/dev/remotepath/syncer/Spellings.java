package dev.remotepath.syncer;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.tree.NameVariants;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A directory's new source names that have other spellings ({@link NameVariants}): merging
 * listings by exact name, a sync would copy {@code Report.txt} over a folding target's
 * {@code report.txt} and then delete {@code report.txt} as extraneous, which there is the file
 * just written; and two source names that differ only so would be written over each other, one
 * silently lost.
 *
 * <p>So before a directory's new source entries are handed on, those with a variant among the
 * directory's other names (both sides) ask the target whether it tells them apart: a
 * {@code stat} of the new name, which finds nothing on a target that does, and the listed
 * variant's file on one that does not; when neither side lists a variant yet, a probe file
 * ({@link NameVariants#tellsApart}). Only directories whose new names have variants pay, one
 * request per name. A folding target's variant is then the file itself, spelled the target's
 * way (compared and updated, not deleted), and a second source name for one target file is
 * refused by name.
 */
final class Spellings {

    private Spellings() {
    }

    /** What becomes of one new source entry that has variants. */
    sealed interface Fate {
        /** The target holds it already under another spelling: that entry is its target. */
        record Paired(DirEntry target) implements Fate {
        }

        /** The target would store it over {@code kept}, which the source also holds. */
        record Refused(String kept) implements Fate {
        }

        /** Asking the target failed. */
        record Failed(IOException error) implements Fate {
        }
    }

    /**
     * The fates of the new entries of one directory that have variants; a new entry not in the
     * answer (the usual case: no variant) is new as it stands. Claimed target entries are
     * removed from {@code gone}.
     *
     * @param sources  the directory's source entries, in listing order
     * @param fresh    the source entries the target lists no entry of that exact name for (in
     *                 the order of {@code sources}, the same objects)
     * @param gone     the target entries the source lists no entry of that exact name for
     * @param mayWrite whether a probe file may be written (not in a dry run, and the target
     *                 directory exists)
     */
    static Map<String, Fate> resolve(RemotePath targetDir, List<DirEntry> sources, List<DirEntry> fresh,
            List<DirEntry> gone, boolean mayWrite) {
        if (!crowded(sources, fresh, gone)) {
            return Map.of(); // nearly every directory: nothing is built, nothing asked
        }
        Map<String, List<DirEntry>> freshByKey = new LinkedHashMap<>();
        for (DirEntry n : fresh) {
            freshByKey.computeIfAbsent(NameVariants.folded(n.name()), k -> new ArrayList<>(1)).add(n);
        }
        // The other spellings each fresh key has: listed on both sides (kept), or only the target's.
        Map<String, List<String>> kept = new HashMap<>();
        Map<String, List<DirEntry>> goneByKey = new HashMap<>();
        int f = 0;
        for (DirEntry s : sources) {
            if (f < fresh.size() && fresh.get(f) == s) {
                f++;
                continue;
            }
            String key = NameVariants.folded(s.name());
            if (freshByKey.containsKey(key)) {
                kept.computeIfAbsent(key, k -> new ArrayList<>(1)).add(s.name());
            }
        }
        for (DirEntry g : gone) {
            String key = NameVariants.folded(g.name());
            if (freshByKey.containsKey(key)) {
                goneByKey.computeIfAbsent(key, k -> new ArrayList<>(1)).add(g);
            }
        }
        Map<String, Fate> fates = new LinkedHashMap<>();
        for (Map.Entry<String, List<DirEntry>> group : freshByKey.entrySet()) {
            List<DirEntry> names = group.getValue();
            List<String> keptNames = kept.getOrDefault(group.getKey(), List.of());
            List<DirEntry> goneEntries = goneByKey.getOrDefault(group.getKey(), List.of());
            if (names.size() == 1 && keptNames.isEmpty() && goneEntries.isEmpty()) {
                continue;
            }
            if (keptNames.isEmpty() && goneEntries.isEmpty()) {
                among(targetDir, names, mayWrite, fates);
            } else {
                against(targetDir, names, keptNames, goneEntries, gone, fates);
            }
        }
        return fates;
    }

    /**
     * Whether a fresh name shares its folded name with another fresh name, a source name the
     * target lists, or a target name the source does not: one set of folded names, no more.
     *
     * @param fresh a subsequence of {@code sources}, in its order
     */
    private static boolean crowded(List<DirEntry> sources, List<DirEntry> fresh, List<DirEntry> gone) {
        java.util.Set<String> freshKeys = new java.util.HashSet<>(fresh.size() * 2);
        for (DirEntry n : fresh) {
            if (!freshKeys.add(NameVariants.folded(n.name()))) {
                return true;
            }
        }
        int f = 0;
        for (DirEntry s : sources) {
            if (f < fresh.size() && fresh.get(f) == s) {
                f++;
            } else if (freshKeys.contains(NameVariants.folded(s.name()))) {
                return true;
            }
        }
        for (DirEntry g : gone) {
            if (freshKeys.contains(NameVariants.folded(g.name()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * New names whose variants the target lists: each is looked up; one the target finds is
     * the listed variant under the new spelling.
     */
    private static void against(RemotePath targetDir, List<DirEntry> names, List<String> keptNames,
            List<DirEntry> goneEntries, List<DirEntry> gone, Map<String, Fate> fates) {
        List<DirEntry> unclaimed = new ArrayList<>(goneEntries);
        String claimedBy = null;
        for (DirEntry n : names) {
            Optional<FileStat> found;
            try {
                found = NameVariants.statIfPresent(targetDir.child(n.name()));
            } catch (IOException e) {
                fates.put(n.name(), new Fate.Failed(e));
                continue;
            }
            if (found.isEmpty()) {
                continue; // the target tells this spelling apart: new as it stands
            }
            if (!keptNames.isEmpty()) {
                fates.put(n.name(), new Fate.Refused(keptNames.getFirst()));
            } else if (claimedBy != null) {
                fates.put(n.name(), new Fate.Refused(claimedBy));
            } else {
                DirEntry match = sameEntry(unclaimed, found.get());
                if (match == null) {
                    fates.put(n.name(), new Fate.Failed(new java.nio.file.FileSystemException(
                            targetDir.child(n.name()).toString(), null, "the target finds this name but does not list "
                                    + "it, and what it finds is not what it lists as "
                                    + unclaimed.stream().map(DirEntry::name).toList() + ": no evidence that they are one file")));
                    continue;
                }
                fates.put(n.name(), new Fate.Paired(match));
                unclaimed.remove(match);
                gone.remove(match);
                claimedBy = n.name();
            }
        }
    }

    /**
     * The listed entry a lookup under another spelling found: the one candidate alike (the same
     * file key where both have one, else the same type and, for a file listed with its exact
     * size, that size).
     * Null when none is, or more than one: a lookup that finds something the listing does not
     * show (a server that says every name exists) is no evidence that two names are one file.
     */
    private static DirEntry sameEntry(List<DirEntry> candidates, FileStat found) {
        DirEntry alike = null;
        for (DirEntry c : candidates) {
            FileStat listed = c.stat();
            boolean same = listed.fileKey().isPresent() && found.fileKey().isPresent()
                    ? listed.fileKey().equals(found.fileKey())
                    : c.type() == found.type() && (c.type() != dev.remotepath.FileType.FILE || !listed.sizeExact()
                            || listed.size().isEmpty() || listed.size().equals(found.size()));
            if (same) {
                if (alike != null) {
                    return null; // two alike: which one the target meant cannot be told
                }
                alike = c;
            }
        }
        return alike;
    }

    /**
     * New names that are variants of each other and of nothing the target lists: the first (in
     * listing order) is copied; a variant the target would store over it is refused.
     */
    private static void among(RemotePath targetDir, List<DirEntry> names, boolean mayWrite, Map<String, Fate> fates) {
        if (!mayWrite) {
            return; // a dry run writes nothing
        }
        String first = names.getFirst().name();
        for (DirEntry n : names.subList(1, names.size())) {
            try {
                Optional<Boolean> apart = NameVariants.tellsApart(targetDir, first, n.name());
                if (apart.isEmpty()) {
                    return; // cannot write here: the copies will fail and say why themselves
                }
                if (!apart.get()) {
                    fates.put(n.name(), new Fate.Refused(first));
                }
            } catch (IOException e) {
                fates.put(n.name(), new Fate.Failed(e));
            }
        }
    }
}
