package dev.remotepath.cli;

import dev.remotepath.cli.scripting.ScriptLog;
import dev.remotepath.syncer.scripting.ScriptingFacade;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.script.Bindings;
import javax.script.ScriptEngine;
import javax.script.ScriptEngineManager;
import javax.script.ScriptException;

/** {@code rpath script}. */
final class ScriptCommand implements Command {

    final Rpath rpath;
    Path file;
    List<String> args = new ArrayList<>();
    Integer transfers;
    Integer checkers;

    ScriptCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath script", "Run a JSR-223 script chosen by its extension: .js (Nashorn) or .groovy.",
                "Bindings: paths (RemotePath and PathSyncer facade), args, out, log.",
                "Every argument after FILE goes to the script as is, options included.")
                .option("N", v -> transfers = Syntax.toPositiveInt(v, "--transfers"), "At most N files transferred at once to or from each "
                        + "backend the script opens, across all its copies and syncs.", "--transfers")
                .option("N", v -> checkers = Syntax.toPositiveInt(v, "--checkers"), "At most N directories of each backend listed at once, "
                        + "across all its walks and syncs.", "--checkers")
                .positional("FILE", v -> file = Syntax.toPath(v))
                .rest("ARGS", args::add);
    }

    @Override
    public Integer call() throws Exception {
        Paths.anyBackend();
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, "script not found");
        }
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String extension = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        ScriptEngine engine = new ScriptEngineManager(engineLoader()).getEngineByExtension(extension);
        if (engine == null) {
            throw new IllegalArgumentException("no script engine for '." + extension + "' files; use .js or .groovy");
        }
        Bindings bindings = engine.createBindings();
        // The script's paths get the same backend options as the command line's own arguments.
        bindings.put("paths", new ScriptingFacade(this::limited));
        bindings.put("args", List.copyOf(args));
        bindings.put("out", rpath.out);
        bindings.put("log", new ScriptLog(rpath.err, name));
        try (Reader source = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            engine.put(ScriptEngine.FILENAME, file.toString());
            engine.eval(source, bindings);
        } catch (ScriptException | RuntimeException e) {
            // Engines wrap what a Java method threw (Nashorn in a RuntimeException, Groovy not at
            // all): report the underlying I/O error, or the innermost cause. Standard output's
            // own failure (its reader gone, a full disk) ends the command as it would any other.
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof StdoutStream.ReaderGone || c instanceof StdoutStream.Failed) {
                    throw (RuntimeException) c;
                }
            }
            Throwable cause = e;
            while (cause.getCause() != null && !(cause instanceof java.io.IOException)
                    && !(cause instanceof IllegalArgumentException)) {
                cause = cause.getCause();
            }
            int line = e instanceof ScriptException se ? se.getLineNumber() : -1;
            rpath.out.flush();
            rpath.err.println("rpath script: " + file + (line > 0 ? ":" + line : "") + ": " + Failures.describe(cause));
            if (rpath.verbose) {
                e.printStackTrace(rpath.err);
            }
            return Failures.SOME_FAILED;
        }
        rpath.out.flush();
        return Failures.OK;
    }

    /**
     * A path of the script's, its backend bounded by {@code --transfers}/{@code --checkers}:
     * a script runs several syncs at once, and these bound what all of them ask of one server.
     */
    private dev.remotepath.RemotePath limited(String arg) throws java.io.IOException {
        dev.remotepath.RemotePath p = Paths.of(arg);
        if (transfers != null) {
            dev.remotepath.BackendLimits.limitTransfers(p.fileSystem(), transfers);
        }
        if (checkers != null) {
            dev.remotepath.BackendLimits.limitListings(p.fileSystem(), checkers);
        }
        return p;
    }

    /**
     * The script engines' class loader: the jars in {@code script-engines/} beside rpath.jar
     * (kept off the main class path so that other commands never load them), or this class's
     * loader when they are already on it (tests, an IDE).
     */
    private static ClassLoader engineLoader() throws java.io.IOException {
        ClassLoader app = ScriptCommand.class.getClassLoader();
        try {
            Path jar = Path.of(ScriptCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = jar.resolveSibling("script-engines");
            if (Files.isRegularFile(jar) && Files.isDirectory(dir)) {
                try (var jars = Files.list(dir)) {
                    java.net.URL[] urls = jars.filter(p -> p.toString().endsWith(".jar")).sorted()
                            .map(p -> {
                                try {
                                    return p.toUri().toURL();
                                } catch (java.net.MalformedURLException e) {
                                    throw new IllegalStateException(e);
                                }
                            }).toArray(java.net.URL[]::new);
                    return new java.net.URLClassLoader("script-engines", urls, app);
                }
            }
        } catch (java.net.URISyntaxException | SecurityException e) {
            // Fall back to the application's class path.
        }
        return app;
    }
}
