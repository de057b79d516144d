package dev.remotepath.cli;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.RemotePath;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "checksum", description = {"Print a file's checksum, the server's own where it has one.",
    "Text output is that of sha256sum: HEX  URI."})
final class ChecksumCommand implements Callable<Integer> {

    @ParentCommand
    Rpath rpath;

    @Option(names = {"-a", "--algorithm"}, defaultValue = "sha256",
            description = "md5, sha1, sha256, sha512, crc32, crc32c or crc64nvme (default ${DEFAULT-VALUE}).")
    String algorithm;

    @Parameters(paramLabel = "URI", arity = "1..*")
    String[] uris;

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
