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
    String uri;

    LsCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath ls", "List a directory (or show a file).")
                .flag(() -> longFormat = true, "Long format: type, size, modification time, name.", "-l")
                .flag(() -> recursive = true, "List subdirectories recursively (names relative to URI).", "-R")
                .flag(() -> mtime = true, "Where a listing has no modification time (S3's has only the time an object "
                        + "was stored, shown as ~TIME), ask each entry for it (a HEAD per object).", "--mtime")
                .positional("URI", v -> uri = v);
    }

    @Override
    public Integer call() throws Exception {
        RemotePath p = Paths.of(uri);
        boolean stats = longFormat || rpath.json;
        FileStat self = p.stat(LinkOption.NOFOLLOW_LINKS);
        if (!self.isDirectory() && !(self.isSymbolicLink() && p.isDirectory())) {
            print(p.name(), self);
            return Failures.OK;
        }
        ListDetail detail = stats ? ListDetail.ALL_STATS : ListDetail.TYPES;
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

    /** The entry's stat, with --mtime asked of the entry itself where the listing had no mtime. */
    private FileStat withMtime(DirEntry e) throws java.io.IOException {
        FileStat s = e.stat();
        if (mtime && s.lastModified().isEmpty() && s.type() == FileType.FILE) {
            return e.path().stat(LinkOption.NOFOLLOW_LINKS);
        }
        return s;
    }

    private void print(String name, FileStat s) {
        if (rpath.json) {
            rpath.out.println(Json.entry(name, s));
        } else if (longFormat) {
            String type = switch (s.type()) {
                case DIRECTORY -> "d";
                case SYMLINK -> "l";
                case FILE -> "-";
                case OTHER -> "?";
            };
            String size = s.type() == FileType.FILE && s.size().isPresent() ? Long.toString(s.size().getAsLong()) : "-";
            // Padded by hand, as %s %12s  %-30s  %s would: Formatter parses its pattern again on
            // every call, ~11 ms of a 1,000-entry ls -l in a fresh JVM (109 -> 98 ms).
            StringBuilder line = new StringBuilder(80).append(type).append(' ');
            Text.padLeft(line, size, 12).append("  ");
            // A listing without mtimes (S3's) shows the time the object was stored, marked '~':
            // never passed off as the file's modification time.
            Text.padRight(line, s.lastModified().map(Object::toString)
                    .orElse(s.storedAt().map(t -> "~" + t).orElse("-")), 30).append("  ");
            rpath.out.println(line.append(Text.escape(s.isDirectory() ? name + "/" : name)));
        } else {
            rpath.out.println(Text.escape(s.isDirectory() ? name + "/" : name));
        }
    }
}
