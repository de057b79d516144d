package dev.remotepath.cli;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.RemotePath;
import java.util.ArrayList;
import java.util.List;

/** {@code rpath checksum}. */
final class ChecksumCommand implements Command {

    final Rpath rpath;
    String algorithm = "sha256";
    List<String> uris = new ArrayList<>();

    ChecksumCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath checksum", "Print a file's checksum, the server's own where it has one.",
                "Text output is that of sha256sum: HEX  URI.")
                .option("ALGORITHM", v -> algorithm = v,
                        "md5, sha1, sha256, sha512, crc32, crc32c or crc64nvme (default sha256).", "-a", "--algorithm")
                .positionals("URI", 1, uris::add);
    }

    @Override
    public Integer call() throws Exception {
        ChecksumAlgorithm alg = ChecksumAlgorithm.parse(algorithm);
        for (String uri : uris) {
            RemotePath p = Paths.of(uri);
            Checksum c = p.checksum(alg);
            if (rpath.json) {
                rpath.out.println(Json.obj().put("path", uri).put("algorithm", alg.name().toLowerCase())
                        .put("checksum", c.hex()).put("origin", c.origin().name().toLowerCase()).put("uri", p.toString()));
            } else {
                rpath.out.println(c.hex() + "  " + Text.escape(uri)); // as typed, as sha256sum prints it
            }
        }
        return Failures.OK;
    }
}
