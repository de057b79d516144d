package dev.remotepath.cli;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.WalkOptions;
import dev.remotepath.spi.ListDetail;
import java.nio.file.LinkOption;
import java.util.List;
import java.util.stream.Stream;

/** {@code rpath ls}. */
final class LsCommand implements Command {

    final Rpath rpath;
    boolean longFormat;
    boolean recursive;
    boolean mtime;
    /** The working directory when none is given, as ls lists it. */
    String uri = ".";

    LsCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath ls", "List a directory (or show a file); the working directory when no URI is given.")
                .flag(() -> longFormat = true, "Long format: type, size, modification time, name.", "-l")
                .flag(() -> recursive = true, "List subdirectories recursively (names relative to URI).", "-R")
                .flag(() -> mtime = true, "Where a listing has no modification time (S3's has only the time an object "
                        + "was stored, shown as ~TIME), ask each entry for it (a HEAD per object).", "--mtime")
                .optional("URI", v -> uri = v);
    }

    @Override
    public Integer call() throws Exception {
        try {
            return list();
        } finally {
            flushLines(); // what was listed before a failure is printed, as it was line by line
        }
    }

    private Integer list() throws java.io.IOException {
        RemotePath p = Paths.of(uri);
        boolean stats = longFormat || rpath.json;
        FileStat self = p.stat(LinkOption.NOFOLLOW_LINKS);
        if (!self.isDirectory() && !(self.isSymbolicLink() && p.isDirectory())) {
            print(p.name(), self);
            return Failures.OK;
        }
        // -l shows type, size and mtime: what FILE_STATS gives files and directories (the local
        // lister then skips owner, inode and access time: 33 -> 20 ms for 1,000 entries in a
        // fresh JVM); the rare link or special file is asked for its own mtime as it is printed.
        ListDetail detail = stats ? ListDetail.FILE_STATS : ListDetail.TYPES;
        // Only where a stat is a system call: a remote listing carries every entry's attributes
        // anyway, and one that leaves a link's out is not worth a round trip per entry.
        statLinks = stats && p.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.IN_PROCESS);
        if (recursive && p.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.FLAT_LISTING)) {
            // The whole tree is read anyway: one flat listing (S3: 1,000 keys a request) rather
            // than one listing per directory, printed in the walk's order.
            java.util.Optional<dev.remotepath.tree.FlatIndex> index = dev.remotepath.tree.FlatIndex.read(p, detail,
                    dev.remotepath.tree.FlatIndex.DEFAULT_BUDGET);
            if (index.isPresent()) {
                printTree(p, p, index.get());
                return Failures.OK;
            }
        }
        if (recursive) {
            try (Stream<DirEntry> all = p.walk(WalkOptions.defaults().withDetail(detail))) {
                for (DirEntry e : (Iterable<DirEntry>) all::iterator) {
                    print(p.relativize(e.path()).pathString(), withMtime(e));
                }
            }
        } else {
            List<DirEntry> entries = p.list(detail);
            for (DirEntry e : entries) {
                print(e.name(), withMtime(e));
            }
        }
        return Failures.OK;
    }

    /** Depth first, each directory sorted, as a walk prints: from the flat index. */
    private void printTree(RemotePath root, RemotePath dir, dev.remotepath.tree.FlatIndex index) throws java.io.IOException {
        List<DirEntry> entries = index.take(dir).orElseGet(List::of);
        for (DirEntry e : entries) {
            print(root.relativize(e.path()).pathString(), withMtime(e));
            if (e.isDirectory()) {
                printTree(root, e.path(), index);
            }
        }
    }

    /** Whether links and special files are stat'ed on their own (FILE_STATS types them only). */
    private boolean statLinks;

    /**
     * The entry's stat, with the entry itself asked where the listing had no mtime: a link or
     * special file on an in-process file system, or with --mtime a file listed without one.
     */
    private FileStat withMtime(DirEntry e) throws java.io.IOException {
        FileStat s = e.stat();
        if (s.lastModified().isEmpty() && ((s.type() == FileType.FILE && mtime)
                || (statLinks && (s.type() == FileType.SYMLINK || s.type() == FileType.OTHER)))) {
            return e.path().stat(LinkOption.NOFOLLOW_LINKS);
        }
        return s;
    }

    /**
     * Lines wait here and go to the output 32K characters at a time: the writer's encoder costs
     * as much a call as a short line's formatting, and a fresh JVM runs both interpreted.
     */
    private final StringBuilder lines = new StringBuilder(1 << 15);

    private void print(String name, FileStat s) {
        StringBuilder line = lines;
        if (rpath.json) {
            line.append(Json.entry(name, s));
        } else if (longFormat) {
            line.append(switch (s.type()) {
                case DIRECTORY -> 'd';
                case SYMLINK -> 'l';
                case FILE -> '-';
                case OTHER -> '?';
            }).append(' ');
            String size = s.type() == FileType.FILE && s.size().isPresent() ? Long.toString(s.size().getAsLong()) : "-";
            // Padded by hand, as %s %12s  %-30s  %s would: Formatter parses its pattern again on
            // every call, ~11 ms of a 1,000-entry ls -l in a fresh JVM (109 -> 98 ms).
            Text.padLeft(line, size, 12).append("  ");
            // A listing without mtimes (S3's) shows the time the object was stored, marked '~':
            // never passed off as the file's modification time.
            String time = s.lastModified().isPresent() ? Text.instant(s.lastModified().get())
                    : s.storedAt().isPresent() ? "~" + Text.instant(s.storedAt().get()) : "-";
            Text.padRight(line, time, 30).append("  ");
            appendName(line, name);
        } else {
            appendName(line, name);
        }
        if (!rpath.json && s.isDirectory()) {
            line.append('/');
        }
        line.append(System.lineSeparator());
        if (line.length() >= 1 << 15) {
            flushLines();
        }
    }

    /** Whether every character waiting in {@link #lines} is ASCII (escaped names, digits, spaces). */
    private boolean linesAscii = true;

    private void appendName(StringBuilder line, String name) {
        if (Text.isPrintableAscii(name)) { // nearly every name: one look at it, not two
            line.append(name);
            return;
        }
        String shown = Text.escape(name);
        linesAscii &= Text.isAscii(shown);
        line.append(shown);
    }

    /**
     * ASCII text is its own UTF-8: such lines go out as the string's Latin-1 bytes (a copy of its
     * array) instead of through the writer's encoder, whose loop over every character runs
     * interpreted in a fresh JVM (~60,000 characters for 1,000 entries).
     */
    private void flushLines() {
        if (lines.isEmpty()) {
            return;
        }
        if (linesAscii && !rpath.json) {
            rpath.out.flush(); // whatever the writer holds goes first
            try {
                rpath.rawOut.write(lines.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            } catch (java.io.IOException e) {
                // the process's standard output fails unchecked (StdoutStream); another stream
                // (a caller's of Rpath.execute) is reported the same way
                throw new StdoutStream.Failed(new java.io.IOException("standard output: " + e.getMessage(), e));
            }
        } else {
            rpath.out.append(lines);
        }
        lines.setLength(0);
        linesAscii = true;
    }
}
