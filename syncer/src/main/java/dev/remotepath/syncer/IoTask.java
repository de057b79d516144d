package dev.remotepath.syncer;

import java.io.IOException;

/** A piece of a run's work that may fail with an {@link IOException}: an action, a directory's walk. */
@FunctionalInterface
interface IoTask {
    void run() throws IOException;
}
