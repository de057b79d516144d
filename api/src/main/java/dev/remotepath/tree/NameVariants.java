package dev.remotepath.tree;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Names that a target may take for one file: {@code Report.txt} and {@code report.txt} on a
 * case-insensitive disk (macOS, Windows, a casefolded ext4, an SFTP, FTP or WebDAV server on
 * one of them), {@code café} composed and decomposed on a normalization-insensitive one
 * (macOS). Which targets fold is not known in advance, and no protocol says: a target is
 * asked, by {@link #tellsApart}, only for names that have such a variant, so trees without
 * any pay nothing.
 */
public final class NameVariants {

    private NameVariants() {
    }

    /**
     * The name a folding file system looks up: composed (NFC) and case folded. The name itself
     * when it is ASCII without capitals, as nearly every name is, at no allocation.
     */
    public static String folded(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 0x80 || (c >= 'A' && c <= 'Z')) {
                String composed = Normalizer.normalize(name, Normalizer.Form.NFC);
                // Upper then lower folds what lower alone keeps apart (ß and SS, ς and σ);
                // composed again, as folding can decompose (ǰ).
                return Normalizer.normalize(composed.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT),
                        Normalizer.Form.NFC);
            }
        }
        return name;
    }

    /**
     * The entries of one listing that share their folded name with another, in groups, each in
     * listing order; empty for nearly every directory. Temporaries are left out.
     */
    public static List<List<DirEntry>> groups(List<DirEntry> entries) {
        Map<String, List<DirEntry>> byFolded = null;
        List<List<DirEntry>> groups = List.of();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (DirEntry e : entries) {
            if (FileTransfer.isTemporary(e.name())) {
                continue;
            }
            String key = folded(e.name());
            if (!seen.add(key)) {
                if (byFolded == null) {
                    byFolded = new LinkedHashMap<>();
                }
                byFolded.computeIfAbsent(key, k -> new ArrayList<>(2)).add(e);
            }
        }
        if (byFolded == null) {
            return groups;
        }
        // The first of each group was passed over above: gather the groups whole, in listing order.
        Map<String, List<DirEntry>> whole = new LinkedHashMap<>();
        for (DirEntry e : entries) {
            String key = FileTransfer.isTemporary(e.name()) ? null : folded(e.name());
            if (key != null && byFolded.containsKey(key)) {
                whole.computeIfAbsent(key, k -> new ArrayList<>(2)).add(e);
            }
        }
        return List.copyOf(whole.values());
    }

    /**
     * Whether the directory {@code dir} keeps {@code written} and {@code other} apart: a probe
     * file is written under the first spelling and looked up under the other, then deleted.
     * Empty when no probe can be written there (read-only, missing): whatever would be written
     * fails on its own then.
     *
     * @throws IOException when the lookup fails
     */
    public static Optional<Boolean> tellsApart(RemotePath dir, String written, String other) throws IOException {
        String[] spellings = probeNames(written, other);
        RemotePath probe = dir.child(spellings[0]);
        RemoteFileSystem fs = dir.fileSystem();
        try {
            fs.openWrite(probe, WriteMode.CREATE_NEW).close();
        } catch (IOException e) {
            return Optional.empty();
        }
        try {
            return Optional.of(statIfPresent(dir.child(spellings[1])).isEmpty());
        } finally {
            try {
                fs.deleteFile(probe);
            } catch (IOException e) {
                // A temporary's name: the next sync of this directory removes it.
            }
        }
    }

    /** Whether something is found under {@code p} (links not followed). */
    public static Optional<dev.remotepath.FileStat> statIfPresent(RemotePath p) throws IOException {
        try {
            return Optional.of(p.fileSystem().stat(p, false));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /**
     * The probe's two spellings for names {@code a} and {@code b}, as temporaries' names
     * ({@code .<spelling>.<hex>.rptmp}, so a leftover is removed by the next sync): the names
     * themselves, or, for names too long to carry that way, the parts in which they differ
     * (what lies before and after is the same in both, and folds the same).
     */
    static String[] probeNames(String a, String b) {
        String suffix = FileTransfer.temporaryName("").substring(1); // ".<hex>.rptmp"
        if (a.getBytes(StandardCharsets.UTF_8).length > 200 || b.getBytes(StandardCharsets.UTF_8).length > 200) {
            int head = 0;
            while (head < a.length() && head < b.length() && a.charAt(head) == b.charAt(head)) {
                head++;
            }
            int tail = 0;
            while (tail < a.length() - head && tail < b.length() - head
                    && a.charAt(a.length() - 1 - tail) == b.charAt(b.length() - 1 - tail)) {
                tail++;
            }
            // Never between the halves of a surrogate pair.
            if (head > 0 && Character.isHighSurrogate(a.charAt(head - 1))) {
                head--;
            }
            if (tail > 0 && Character.isLowSurrogate(a.charAt(a.length() - tail))) {
                tail--;
            }
            a = a.substring(head, a.length() - tail);
            b = b.substring(head, b.length() - tail);
        }
        return new String[] {"." + a + suffix, "." + b + suffix};
    }
}
