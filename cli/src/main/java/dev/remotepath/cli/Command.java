package dev.remotepath.cli;

import java.util.concurrent.Callable;

/** An {@code rpath} subcommand: its syntax, bound to its fields, and what it does once they are set. */
interface Command extends Callable<Integer> {

    Syntax syntax();
}
