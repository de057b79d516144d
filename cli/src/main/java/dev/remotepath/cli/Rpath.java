package dev.remotepath.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine;

/**
 * The {@code rpath} command: list, read, copy, move, remove, checksum and sync paths on any
 * backend, and run JSR-223 scripts. Exit codes: 0 success, 1 some operations failed,
 * 2 usage error, 3 refused for safety.
 */
public final class Rpath implements Runnable {

    /** The subcommands, by name, each built with its model; built lazily (see {@link #execute}). */
    private static final Map<String, Function<Rpath, CommandSpec>> SUBCOMMANDS = new LinkedHashMap<>();

    static {
        SUBCOMMANDS.put("ls", r -> new LsCommand(r).spec());
        SUBCOMMANDS.put("stat", r -> new StatCommand(r).spec());
        SUBCOMMANDS.put("cat", r -> new CatCommand(r).spec());
        SUBCOMMANDS.put("cp", r -> new CpCommand(r).spec());
        SUBCOMMANDS.put("mv", r -> new MvCommand(r).spec());
        SUBCOMMANDS.put("rm", r -> new RmCommand(r).spec());
        SUBCOMMANDS.put("mkdir", r -> new MkdirCommand(r).spec());
        SUBCOMMANDS.put("checksum", r -> new ChecksumCommand(r).spec());
        SUBCOMMANDS.put("sync", r -> new SyncCommand(r).spec());
        SUBCOMMANDS.put("script", r -> new ScriptCommand(r).spec());
    }

    boolean json;
    boolean verbose;
    List<Path> identities = new ArrayList<>();
    Path knownHosts;
    boolean acceptNewHostKeys;
    String sftpClient;
    URI s3Endpoint;
    String s3Region;
    boolean s3PathStyle;

    /** The model of the options above, which every subcommand inherits. */
    private CommandSpec spec() {
        CommandSpec spec = CommandModel.command(this, "rpath", "One path API over local disk, memory, HTTP, SFTP and S3.");
        spec.version("rpath 0.1.0");
        spec.usageMessage().exitCodeListHeading("%nExit codes:%n");
        Map<String, String> exitCodes = new LinkedHashMap<>();
        exitCodes.put("0", "success");
        exitCodes.put("1", "some operations failed (each is reported)");
        exitCodes.put("2", "usage error");
        exitCodes.put("3", "refused for safety (max-delete exceeded, missing or empty source with --delete)");
        spec.usageMessage().exitCodeList(exitCodes);
        // What mixinStandardHelpOptions adds, without the reflection it costs.
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help message and exit.")
                .build());
        spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true)
                .description("Print version information and exit.").build());
        spec.addOption(inherited(CommandModel.flag(v -> json = v, "Print JSON (one object per line) instead of text.",
                "--json")));
        spec.addOption(inherited(CommandModel.flag(v -> verbose = v, "Add stack traces to error messages.", "--verbose")));
        spec.addOption(inherited(CommandModel.repeatable(Path.class, "FILE", () -> identities, v -> identities = v,
                "SFTP: a private key to offer (repeatable).", "--identity")));
        spec.addOption(inherited(CommandModel.option(Path.class, "FILE", v -> knownHosts = v,
                "SFTP: the known_hosts file (default ~/.ssh/known_hosts).", "--known-hosts")));
        spec.addOption(inherited(CommandModel.flag(v -> acceptNewHostKeys = v,
                "SFTP: accept and record unknown host keys (changed keys still fail).", "--accept-new-host-keys")));
        spec.addOption(inherited(CommandModel.option(String.class, "mina|sshj", v -> sftpClient = v,
                "SFTP: the SSH client library (default ${DEFAULT-VALUE}).", "--sftp-client").defaultValue("mina")));
        spec.addOption(inherited(CommandModel.option(URI.class, "URL", v -> s3Endpoint = v,
                "S3: an S3-compatible endpoint (http(s)://host:port); default AWS.", "--s3-endpoint")));
        spec.addOption(inherited(CommandModel.option(String.class, "R", v -> s3Region = v,
                "S3: the region (default: AWS_REGION or the profile's, else us-east-1).", "--s3-region")));
        spec.addOption(inherited(CommandModel.flag(v -> s3PathStyle = v,
                "S3: address buckets as endpoint/bucket (MinIO, Ceph, s3proxy).", "--s3-path-style")));
        return spec;
    }

    private static OptionSpec inherited(OptionSpec.Builder option) {
        return option.scopeType(ScopeType.INHERIT).build();
    }

    private CommandLine commandLine;

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
        throw new CommandLine.ParameterException(commandLine, "a subcommand is required");
    }

    /** Runs {@code rpath ARGS...} with the given streams and returns the exit code. */
    public static int execute(String[] args, OutputStream out, OutputStream err) {
        Rpath rpath = new Rpath(out, err);
        Paths.use(rpath);
        CommandLine cl = new CommandLine(rpath.spec(), new Factory());
        rpath.commandLine = cl;
        // A one-shot command builds the model of only the subcommand it runs (all of them for
        // help and errors).
        String invoked = Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst().orElse("");
        if (SUBCOMMANDS.containsKey(invoked)) {
            cl.addSubcommand(invoked, SUBCOMMANDS.get(invoked).apply(rpath));
        } else {
            SUBCOMMANDS.forEach((name, make) -> cl.addSubcommand(name, make.apply(rpath)));
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
