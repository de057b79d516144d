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
import java.util.List;

/**
 * The {@code rpath} command: list, read, copy, move, remove, checksum and sync paths on any
 * backend, and run JSR-223 scripts. Exit codes: 0 success, 1 some operations failed,
 * 2 usage error, 3 refused for safety, 141 standard output's reader went away.
 */
public final class Rpath {

    static final String VERSION = "rpath 0.1.0";

    /** The subcommands' names, in the order help lists them. */
    private static final List<String> COMMANDS =
            List.of("ls", "stat", "cat", "cp", "mv", "rm", "mkdir", "checksum", "sync", "script", "completion");

    /** The subcommand {@code name} bound to this run's options, or null for no such subcommand. */
    private Command command(String name) {
        return switch (name) {
            case "ls" -> new LsCommand(this);
            case "stat" -> new StatCommand(this);
            case "cat" -> new CatCommand(this);
            case "cp" -> new CpCommand(this);
            case "mv" -> new MvCommand(this);
            case "rm" -> new RmCommand(this);
            case "mkdir" -> new MkdirCommand(this);
            case "checksum" -> new ChecksumCommand(this);
            case "sync" -> new SyncCommand(this);
            case "script" -> new ScriptCommand(this);
            case "completion" -> new CompletionCommand(this);
            default -> null;
        };
    }

    boolean json;
    boolean verbose;
    String logLevel;
    List<Path> identities = new ArrayList<>();
    Path knownHosts;
    boolean acceptNewHostKeys;
    String sftpClient = "mina";
    String proxyJump;
    boolean s3PerDirectoryListing;
    URI s3Endpoint;
    URI azEndpoint;
    boolean azPerDirectoryListing;
    boolean webdavPerDirectoryListing;
    java.time.Duration webdavListingTimeout;
    Long webdavMaxListingBytes;
    String s3Region;
    boolean s3PathStyle;
    Integer s3PartSize;
    Integer azBlockSize;
    java.time.Duration timeout;
    java.time.Duration httpListingTimeout;
    Long httpMinRate;
    Long httpMaxIndexBytes;
    boolean httpLenientIndex;
    boolean httpCrossOriginRedirects;

    boolean help;
    boolean version;

    /** The global options, for shell completion. */
    Syntax globalSyntax() {
        return syntax();
    }

    /** Each subcommand's options by its name, in help's order, for shell completion. */
    java.util.Map<String, Syntax> commandSyntaxes() {
        java.util.Map<String, Syntax> all = new java.util.LinkedHashMap<>();
        for (String name : COMMANDS) {
            all.put(name, command(name).syntax());
        }
        return all;
    }

    /** The options valid before and after every subcommand. */
    private Syntax syntax() {
        return new Syntax("rpath", "One path API: local disk, memory, HTTP, SFTP, S3, Azure, WebDAV, FTP, zip, tar.")
                .flag(() -> help = true, "Show this help message and exit.", "-h", "--help")
                .flag(() -> version = true, "Print version information and exit.", "-V", "--version")
                .flag(() -> json = true, "Print JSON (one object per line) instead of text.", "--json")
                .flag(() -> verbose = true, "Add stack traces to error messages, a line per request of a remote "
                        + "backend, and the libraries' log (level info).", "--verbose")
                .option("LEVEL", v -> logLevel = logLevel(v), "Show the libraries' log from LEVEL up: off, error, warn, "
                        + "info, debug, trace (default off).", "--log-level")
                .repeatable("FILE", v -> identities.add(Syntax.toPath(v)), "SFTP: a private key to offer (repeatable).",
                        "--identity")
                .option("FILE", v -> knownHosts = Syntax.toPath(v),
                        "SFTP: the known_hosts file (default ~/.ssh/known_hosts).", "--known-hosts")
                .flag(() -> acceptNewHostKeys = true,
                        "SFTP: accept and record unknown host keys (changed keys still fail).", "--accept-new-host-keys")
                .option("mina|sshj", v -> sftpClient = v, "SFTP: the SSH client library (default mina).", "--sftp-client")
                .option("[USER@]HOST[:PORT]", v -> proxyJump = v, "SFTP: connect through this SSH host (comma-separated "
                        + "hops, as ssh -J; default: ProxyJump of ~/.ssh/config).", "-J", "--proxy-jump")
                .option("URL", v -> s3Endpoint = Syntax.toUri(v),
                        "S3: an S3-compatible endpoint (http(s)://host:port); default AWS.", "--s3-endpoint")
                .option("R", v -> s3Region = v, "S3: the region (default: AWS_REGION or the profile's, else us-east-1).",
                        "--s3-region")
                .flag(() -> s3PathStyle = true, "S3: address buckets as endpoint/bucket (MinIO, Ceph, s3proxy).",
                        "--s3-path-style")
                .flag(() -> s3PerDirectoryListing = true, "S3: list trees one directory at a time, for stores whose "
                        + "flat listing is slow (s3proxy's filesystem provider).", "--s3-per-directory-listing")
                .option("SIZE", v -> s3PartSize = Syntax.toBufferSize(v, dev.remotepath.s3.S3Options.MIN_PART_SIZE,
                        Integer.MAX_VALUE - 8, "the sizes of an S3 part"), "S3: the size of each part of an upload "
                        + "(default 8M; at most 10,000 parts, so 78G at 8M; memory grows with it).", "--s3-part-size")
                .option("URL", v -> azEndpoint = Syntax.toUri(v), "Azure: the blob endpoint (default: the connection "
                        + "string's, else https://$AZURE_STORAGE_ACCOUNT.blob.core.windows.net).", "--az-endpoint")
                .flag(() -> azPerDirectoryListing = true, "Azure: list trees one directory at a time instead of "
                        + "flat (Azurite, whose flat listing pages cost more the larger the tree).",
                        "--az-per-directory-listing")
                .option("SIZE", v -> azBlockSize = Syntax.toBufferSize(v, dev.remotepath.azure.AzureOptions.MIN_BLOCK_SIZE,
                        dev.remotepath.azure.AzureOptions.MAX_BLOCK_SIZE, "the sizes of an Azure block"), "Azure: the size "
                        + "of each block of an upload (default 4M; at most 50,000 blocks, so 195G at 4M).", "--az-block-size")
                .flag(() -> webdavPerDirectoryListing = true, "WebDAV: list trees one directory at a time, never by "
                        + "one PROPFIND of Depth: infinity (asked by default; a server that refuses it costs one request).",
                        "--webdav-per-directory-listing")
                .option("DURATION", v -> webdavListingTimeout = Syntax.toDuration(v), "WebDAV: the longest a "
                        + "PROPFIND may take in all, its answer included (default 2m).", "--webdav-listing-timeout")
                .option("SIZE", v -> webdavMaxListingBytes = Syntax.toSize(v),
                        "WebDAV: the largest PROPFIND answer read (default 64M).", "--webdav-max-listing-bytes")
                .option("DURATION", v -> timeout = Syntax.toDuration(v), "SFTP, S3, Azure, HTTP, WebDAV, FTP: the longest "
                        + "a server may take to answer one request, or stay silent in a body (30s, 2m; default 60s).", "--timeout")
                .option("DURATION", v -> httpListingTimeout = Syntax.toDuration(v),
                        "HTTP: the longest a whole index page may take to arrive (default 2m).", "--http-listing-timeout")
                .option("SIZE", v -> httpMaxIndexBytes = Syntax.toSize(v),
                        "HTTP: the largest index page read (default 8M).", "--http-max-index-bytes")
                .option("SIZE", v -> httpMinRate = Syntax.toSize(v), "HTTP: the slowest a file body may arrive, "
                        + "bytes per second (default 1K; 0 turns the check off).", "--http-min-rate")
                .flag(() -> httpLenientIndex = true, "HTTP: list pages whose title and headings do not name their "
                        + "directory (maintenance and login pages are then read as listings).", "--http-lenient-index")
                .flag(() -> httpCrossOriginRedirects = true,
                        "HTTP: follow redirects to another scheme, host or port.", "--http-cross-origin-redirects");
    }

    final PrintWriter out;
    final PrintWriter err;
    final OutputStream rawOut;
    /** The command being run, for errors met after it returned (its last output flushed). */
    private String commandName = "rpath";
    private boolean outputFailureReported;

    Rpath(OutputStream out, OutputStream err) {
        this.rawOut = out;
        this.out = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), false);
        this.err = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    }

    /** Runs {@code rpath ARGS...} with the given streams and returns the exit code. */
    public static int execute(String[] args, OutputStream out, OutputStream err) {
        setLogLevelEarly(args);
        Rpath rpath = new Rpath(out, err);
        Paths.use(rpath);
        int code = Failures.USAGE;
        try {
            code = rpath.run(args);
        } finally {
            code = rpath.flushOutput(code);
            rpath.err.flush();
        }
        return code;
    }

    /** Writes out what the command printed last: the reader gone or the disk full change the exit code. */
    private int flushOutput(int code) {
        try {
            out.flush();
            return code;
        } catch (StdoutStream.ReaderGone e) {
            return StdoutStream.READER_GONE_EXIT;
        } catch (StdoutStream.Failed e) {
            if (outputFailureReported) {
                return code; // the command met it and it was reported: the same failure again is not news
            }
            return Math.max(code, Failures.report(commandName, e.getCause(), verbose, json, err));
        }
    }

    private int run(String[] args) {
        Syntax global = syntax();
        Syntax.Parsed parsed;
        try {
            parsed = Syntax.parse(global, this::command, args);
            if (help) {
                out.print(help(global, parsed));
                return Failures.OK;
            }
            if (version) {
                out.println(VERSION);
                for (String line : Versions.lines()) {
                    out.println(line);
                }
                return Failures.OK;
            }
            parsed.validate();
            if (parsed.command().isEmpty()) {
                throw new UsageException(global, "a subcommand is required");
            }
        } catch (UsageException e) {
            if (json || java.util.Arrays.asList(args).contains("--json")) {
                err.println(Json.obj().put("error", e.getMessage()).put("path", null).put("other", null)
                        .put("kind", "usage").put("command", e.syntax().usageName()).put("exit", Failures.USAGE)
                        .put("usage", e.syntax().usageLine()));
                return Failures.USAGE;
            }
            err.println(e.getMessage());
            err.println(e.syntax().usageLine());
            err.println("Try '" + e.syntax().usageName() + " --help' for more information.");
            return Failures.USAGE;
        }
        Command command = parsed.command().get();
        commandName = command.syntax().commandName();
        if (logLevel != null || verbose) {
            // Read by slf4j-simple when the first logger is made, which no backend has done yet.
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", logLevel != null ? logLevel : "info");
        }
        int code;
        try {
            code = command.call();
        } catch (StdoutStream.ReaderGone e) {
            return StdoutStream.READER_GONE_EXIT; // as ls | head ends: quietly, 141
        } catch (StdoutStream.Failed e) {
            outputFailureReported = true;
            code = Failures.report(command.syntax().commandName(), e.getCause(), verbose, json, err);
        } catch (Exception e) {
            code = Failures.report(command.syntax().commandName(), e, verbose, json, err);
        }
        // A new zip or tar the command wrote into is published only whole: after a failure it
        // is discarded, so an archive under the name is always a complete one.
        for (Exception e : Paths.finishNewArchives(code == Failures.OK)) {
            code = Math.max(code, Failures.report(command.syntax().commandName(), e, verbose, json, err));
        }
        return code;
    }

    /**
     * slf4j-simple fixes each logger's level when the logger is made, from a system property read
     * once: set it from {@code --log-level}/{@code --verbose} before anything runs (parsing the
     * options loads backend classes, some of which make their loggers as they load), so the flag
     * holds whatever is loaded first. The full parse validates the flags again; arguments after a
     * script's file are the script's and are not read here.
     */
    private static void setLogLevelEarly(String[] args) {
        String level = null;
        boolean script = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--") || (script && !a.startsWith("-"))) {
                break;
            }
            if (a.equals("script")) {
                script = true;
            } else if (a.equals("--verbose") && level == null) {
                level = "info";
            } else if (a.equals("--log-level") && i + 1 < args.length) {
                level = args[++i];
            } else if (a.startsWith("--log-level=")) {
                level = a.substring("--log-level=".length());
            }
        }
        if (level != null) {
            try {
                System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", logLevel(level));
            } catch (IllegalArgumentException invalid) {
                // the full parse reports it
            }
        }
    }

    private static String logLevel(String v) {
        String level = v.toLowerCase(java.util.Locale.ROOT);
        if (!List.of("off", "error", "warn", "info", "debug", "trace").contains(level)) {
            throw new IllegalArgumentException("'" + v + "' is not a log level (off, error, warn, info, debug, trace)");
        }
        return level;
    }

    /** The help of the subcommand named, else of {@code rpath} with its list of subcommands. */
    private String help(Syntax global, Syntax.Parsed parsed) {
        StringBuilder sb = new StringBuilder();
        if (parsed.command().isPresent()) {
            Syntax command = parsed.syntax();
            command.describe(sb);
            sb.append("\nOptions:\n");
            command.listOptions(sb);
            sb.append("\nGlobal options (before or after the command):\n");
            global.listOptions(sb);
            return sb.toString();
        }
        global.describe(sb);
        sb.append("\nCommands:\n");
        for (String name : COMMANDS) {
            Syntax.column(sb, "  " + name, 12, command(name).syntax().summary());
        }
        sb.append("\nOptions (before or after the command):\n");
        global.listOptions(sb);
        sb.append("\nExit codes:\n");
        Syntax.column(sb, "  0", 6, "success");
        Syntax.column(sb, "  1", 6, "some operations failed (each is reported)");
        Syntax.column(sb, "  2", 6, "usage error");
        Syntax.column(sb, "  3", 6, "refused for safety (max-delete exceeded, missing or empty source with --delete)");
        Syntax.column(sb, "  141", 6, "standard output's reader went away (rpath ls -R | head): stopped, quietly");
        return sb.toString();
    }

    private static final String JETTY_REFERENCES_PER_CACHE_LINE = "org.eclipse.jetty.util.referencesPerCacheLine";

    public static void main(String[] args) {
        // Jetty (the http and webdav backends' client) pads a queue to the CPU's cache line,
        // which it otherwise learns from the platform MBean server: starting JMX (and JFR's
        // MBeans with it) cost an http:// or webdav:// command ~0.1 s. 16 references a line: a
        // 64-byte line with compressed references, as rpath's heaps have them.
        if (System.getProperty(JETTY_REFERENCES_PER_CACHE_LINE) == null) {
            System.setProperty(JETTY_REFERENCES_PER_CACHE_LINE, "16");
        }
        for (String a : args) {
            if (a.indexOf('\uFFFD') >= 0) { // checked here: RawArguments loads only when needed
                args = RawArguments.recover(args);
                break;
            }
        }
        Prewarm.forArguments(args);
        int code = execute(args, StdoutStream.ofProcess(new FileOutputStream(FileDescriptor.out)),
                new FileOutputStream(FileDescriptor.err));
        if (code == Failures.OK && Paths.inProcessOnly()) {
            // Returning ends the JVM as System.exit(0) would, shutdown hooks included, but without
            // Runtime.exit's lookup of a System.Logger: a service scan that opens every jar on the
            // class path, the 20,000-entry backends jar too (~11 ms of a ~160 ms sync). Only
            // daemon threads are left once a local or in-memory command is done.
            return;
        }
        System.exit(code);
    }
}
