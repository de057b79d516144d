package dev.remotepath.sftp;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.OpenState;
import java.io.IOException;
import java.net.SocketTimeoutException;

/**
 * The connection under an {@link SftpFileSystem}: one SSH connection, or a pool of them, made
 * again by the next operation after a drop; operations that are safe to repeat tried once more
 * on a fresh connection after a transport failure; and transport failures put in words that
 * name the server, the operation and the path.
 */
final class SftpConnection {

    private final SftpEndpoint endpoint;
    private final OpenState state;
    private volatile SftpWire wire;

    /** Connects at once: a file system is made only for a server that let the user in. */
    SftpConnection(SftpEndpoint endpoint, OpenState state) throws IOException {
        this.endpoint = endpoint;
        this.state = state;
        this.wire = connect();
    }

    private SftpWire connect() throws IOException {
        SftpWire first = connectOne();
        int n = endpoint.options().connections();
        return n == 1 ? first : new PooledWire(first, n, this::connectOne);
    }

    private SftpWire connectOne() throws IOException {
        return switch (endpoint.options().client()) {
            case MINA -> MinaWire.connect(endpoint);
            case SSHJ -> SshjWire.connect(endpoint);
        };
    }

    /** The connection as it is, alive or not: for what it announced (extensions, client name). */
    SftpWire current() {
        return wire;
    }

    /**
     * The live connection, once the file system is checked open; a dropped one is made again
     * here, so the operation after a drop works again (the one in flight during it fails, with a
     * clear error).
     */
    SftpWire live() throws IOException {
        state.requireOpen();
        SftpWire c = wire;
        if (c.alive()) {
            return c;
        }
        synchronized (this) {
            c = wire;
            if (!c.alive()) {
                c.closeQuietly();
                c = connect();
                wire = c;
            }
        }
        return c;
    }

    /**
     * Runs an operation that is safe to repeat (stat, list, remove, rmdir). A transport failure
     * (not a server's answer) may come from a session that is dying without knowing it yet:
     * the connection is dropped and the operation tried once more on a fresh one.
     */
    <T> T repeatable(SftpWire.Operation<T> call) throws IOException {
        SftpWire c = live();
        try {
            return call.on(c);
        } catch (SftpStatusException | SftpWire.EndlessListing answer) {
            throw answer;
        } catch (SocketTimeoutException slow) {
            throw slow; // asked again, a server that did not answer in time makes the caller wait twice
        } catch (IOException transport) {
            // A pool has closed the one connection that failed, and keeps the others (with
            // the streams open on them); a single connection is the whole of it.
            if (!(c instanceof PooledWire)) {
                synchronized (this) {
                    if (wire == c) {
                        c.closeQuietly();
                    }
                }
            }
            return call.on(live());
        }
    }

    /** A failure of {@code operation} on {@code p} as the caller should see it. */
    IOException transport(IOException e, String operation, RemotePath p) {
        if (e instanceof SftpStatusException se) {
            return SftpErrors.mapped(se, p, null);
        }
        String where = SftpEndpoint.where(endpoint.user(), endpoint.host(), endpoint.port());
        if (e instanceof SocketTimeoutException && !String.valueOf(e.getMessage()).startsWith("sftp ")) {
            SocketTimeoutException t = new SocketTimeoutException("sftp " + where + ": no answer to " + operation
                    + " of " + p + " within " + endpoint.options().readTimeout().toMillis()
                    + " ms (SftpOptions.readTimeout)");
            t.initCause(e);
            return t;
        }
        if (!wire.alive()) {
            return new IOException("sftp " + where + ": connection lost during " + operation + " of " + p
                    + " (" + e.getMessage() + ")", e);
        }
        return new IOException("sftp " + operation + " of " + p + " failed: " + e.getMessage(), e);
    }

    /**
     * The path's own stat, or null when the server answers that it is not there (any status
     * answer). A transport failure is not "no such file": it is thrown as the connection error
     * it is, so a dropped connection never reads as an absent file.
     */
    FileStat lstatQuietly(RemotePath p) throws IOException {
        try {
            return SftpStats.toStat(live().lstat(p.pathString()));
        } catch (SftpStatusException answer) {
            return null;
        } catch (IOException e) {
            throw transport(e, "lstat", p);
        }
    }

    void closeQuietly() {
        wire.closeQuietly();
    }
}
