package dev.remotepath.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code rpath} command: list, read, copy, move, remove, checksum and sync paths on any
 * backend, and run JSR-223 scripts. Exit codes: 0 success, 1 some operations failed,
 * 2 usage error, 3 refused for safety.
 */
@Command(name = "rpath", mixinStandardHelpOptions = true, version = "rpath 0.1.0",
        description = "One path API over local disk, memory, HTTP, SFTP and S3.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:some operations failed (each is reported)", "2:usage error",
            "3:refused for safety (max-delete exceeded, missing or empty source with --delete)"})
public final class Rpath implements Runnable {

    /** The subcommands, by name; built lazily (see {@link #execute}). */
    private static final Map<String, Supplier<Object>> SUBCOMMANDS = new LinkedHashMap<>();

    static {
        SUBCOMMANDS.put("ls", LsCommand::new);
        SUBCOMMANDS.put("stat", StatCommand::new);
        SUBCOMMANDS.put("cat", CatCommand::new);
        SUBCOMMANDS.put("cp", CpCommand::new);
        SUBCOMMANDS.put("mv", MvCommand::new);
        SUBCOMMANDS.put("rm", RmCommand::new);
        SUBCOMMANDS.put("mkdir", MkdirCommand::new);
        SUBCOMMANDS.put("checksum", ChecksumCommand::new);
        SUBCOMMANDS.put("sync", SyncCommand::new);
        SUBCOMMANDS.put("script", ScriptCommand::new);
    }

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print JSON (one object per line) instead of text.")
    boolean json;

    @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Add stack traces to error messages.")
    boolean verbose;

    @Option(names = "--identity", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "SFTP: a private key to offer (repeatable).")
    java.util.List<java.nio.file.Path> identities = new java.util.ArrayList<>();

    @Option(names = "--known-hosts", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "SFTP: the known_hosts file (default ~/.ssh/known_hosts).")
    java.nio.file.Path knownHosts;

    @Option(names = "--accept-new-host-keys", scope = ScopeType.INHERIT,
            description = "SFTP: accept and record unknown host keys (changed keys still fail).")
    boolean acceptNewHostKeys;

    @Option(names = "--sftp-client", paramLabel = "mina|sshj", defaultValue = "mina", scope = ScopeType.INHERIT,
            description = "SFTP: the SSH client library (default ${DEFAULT-VALUE}).")
    String sftpClient;

    @Option(names = "--s3-endpoint", paramLabel = "URL", scope = ScopeType.INHERIT,
            description = "S3: an S3-compatible endpoint (http(s)://host:port); default AWS.")
    java.net.URI s3Endpoint;

    @Option(names = "--s3-region", paramLabel = "R", scope = ScopeType.INHERIT,
            description = "S3: the region (default: AWS_REGION or the profile's, else us-east-1).")
    String s3Region;

    @Option(names = "--s3-path-style", scope = ScopeType.INHERIT,
            description = "S3: address buckets as endpoint/bucket (MinIO, Ceph, s3proxy).")
    boolean s3PathStyle;

    final PrintWriter out;
    final PrintWriter err;
    final OutputStream rawOut;

    Rpath(OutputStream out, OutputStream err) {
        this.rawOut = out;
        this.out = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), false);
        this.err = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "a subcommand is required");
    }

    /** Runs {@code rpath ARGS...} with the given streams and returns the exit code. */
    public static int execute(String[] args, OutputStream out, OutputStream err) {
        Rpath rpath = new Rpath(out, err);
        Paths.use(rpath);
        CommandLine cl = new CommandLine(rpath, new Factory());
        // picocli builds the model of every registered subcommand up front; a one-shot command
        // registers only the one it runs (all of them for help and errors).
        String invoked = Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst().orElse("");
        if (SUBCOMMANDS.containsKey(invoked)) {
            cl.addSubcommand(invoked, SUBCOMMANDS.get(invoked).get());
        } else {
            SUBCOMMANDS.forEach((name, make) -> cl.addSubcommand(name, make.get()));
        }
        cl.setOut(rpath.out);
        cl.setErr(rpath.err);
        cl.setExecutionExceptionHandler((e, cmd, parsed) ->
                Failures.report(cmd.getCommandName(), e, rpath.verbose, rpath.err));
        try {
            return cl.execute(args);
        } finally {
            rpath.out.flush();
            rpath.err.flush();
        }
    }

    public static void main(String[] args) {
        int code = execute(args, new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err));
        System.exit(code);
    }
}
