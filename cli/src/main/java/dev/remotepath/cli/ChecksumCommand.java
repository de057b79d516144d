package dev.remotepath.cli;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.RemotePath;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rpath checksum}. */
final class ChecksumCommand implements Callable<Integer> {

    final Rpath rpath;
    String algorithm;
    List<String> uris = new ArrayList<>();

    ChecksumCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    CommandSpec spec() {
        CommandSpec spec = CommandModel.command(this, "checksum", "Print a file's checksum, the server's own where it has one.",
                "Text output is that of sha256sum: HEX  URI.");
        spec.addOption(CommandModel.option(String.class, "<algorithm>", v -> algorithm = v,
                "md5, sha1, sha256, sha512, crc32, crc32c or crc64nvme (default ${DEFAULT-VALUE}).", "-a", "--algorithm")
                .defaultValue("sha256").build());
        spec.addPositional(CommandModel.positionals("0", "1..*", String.class, "URI", () -> uris, v -> uris = v));
        return spec;
    }

    @Override
    public Integer call() throws Exception {
        ChecksumAlgorithm alg = ChecksumAlgorithm.parse(algorithm);
        for (String uri : uris) {
            RemotePath p = Paths.of(uri);
            Checksum c = p.checksum(alg);
            if (rpath.json) {
                rpath.out.println(Json.obj().put("path", p.toString()).put("algorithm", alg.name().toLowerCase())
                        .put("checksum", c.hex()).put("origin", c.origin().name().toLowerCase()));
            } else {
                rpath.out.println(c.hex() + "  " + p);
            }
        }
        return Failures.OK;
    }
}
