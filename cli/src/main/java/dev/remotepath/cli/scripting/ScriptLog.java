package dev.remotepath.cli.scripting;

import java.io.PrintWriter;

/**
 * What an {@code rpath script} sees as {@code log}: lines on stderr, prefixed with the script's
 * name. In a package of its own, exported by the cli module, because a script engine links the
 * calls only to public classes of packages every module can read.
 */
public final class ScriptLog {
    private final PrintWriter err;
    private final String name;

    /** Lines go to {@code err}, each prefixed with {@code name}. */
    public ScriptLog(PrintWriter err, String name) {
        this.err = err;
        this.name = name;
    }

    public void info(Object message) {
        err.println(name + ": " + message);
    }

    public void warn(Object message) {
        err.println(name + ": warning: " + message);
    }

    public void error(Object message) {
        err.println(name + ": error: " + message);
    }
}
