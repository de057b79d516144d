package dev.remotepath.cli;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import java.nio.file.LinkOption;
import java.nio.file.attribute.PosixFilePermissions;

/** {@code rpath stat}. */
final class StatCommand implements Command {

    final Rpath rpath;
    String uri;

    StatCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath stat", "Show what is known about a path (links are not followed).")
                .positional("URI", v -> uri = v);
    }

    @Override
    public Integer call() throws Exception {
        RemotePath p = Paths.of(uri);
        FileStat s = p.stat(LinkOption.NOFOLLOW_LINKS);
        if (rpath.json) {
            rpath.out.println(Json.obj().put("path", uri).put("name", p.name()).put("type", s.type().label())
                    .put("size", s.isRegularFile() && s.size().isPresent() ? s.size().getAsLong() : null)
                    .put("mtime", s.lastModified().map(Object::toString).orElse(null)).put("uri", p.toString()));
            return Failures.OK;
        }
        rpath.out.println("path:        " + Text.escape(p.toString()));
        rpath.out.println("type:        " + s.type().label());
        s.size().ifPresent(n -> rpath.out.println("size:        " + n + (s.sizeExact() ? "" : " (approximate)")));
        s.lastModified().ifPresent(t -> rpath.out.println("mtime:       " + t + " (precision " + s.lastModifiedPrecision() + ")"));
        s.permissions().ifPresent(pm -> rpath.out.println("permissions: " + PosixFilePermissions.toString(pm)));
        s.etag().ifPresent(e -> rpath.out.println("etag:        " + e));
        s.checksums().forEach((alg, hex) -> rpath.out.println("checksum:    " + alg.name().toLowerCase() + ":" + hex));
        if (s.isSymbolicLink()) {
            rpath.out.println("target:      " + Text.escape(p.readSymbolicLink()));
        }
        return Failures.OK;
    }
}
