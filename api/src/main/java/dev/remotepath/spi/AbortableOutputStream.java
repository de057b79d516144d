package dev.remotepath.spi;

import java.io.IOException;
import java.io.OutputStream;

/**
 * An output stream whose writes can be abandoned. A backend that cannot rename at all (neither
 * {@link Capability#ATOMIC_RENAME} nor {@link Capability#RENAME}: S3) returns one from
 * {@code openWrite}: {@link #close()}
 * publishes the object, {@link #abort()} discards everything written, leaving any previous
 * object intact. The api calls {@code abort()} when a copy fails, never {@code close()}.
 */
public abstract class AbortableOutputStream extends OutputStream {

    /** Discards what was written; the target keeps its previous content (or stays absent). */
    public abstract void abort() throws IOException;
}
