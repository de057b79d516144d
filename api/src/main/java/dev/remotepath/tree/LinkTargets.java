package dev.remotepath.tree;

import dev.remotepath.RemotePath;
import java.io.IOException;

/**
 * Where a symbolic link leads, resolved lexically (its text read once, joined to the directory
 * that holds it). Backends without file identities (SFTP, S3, HTTP) detect link loops with it:
 * following a link to the directory being walked, or to one above it, would never end.
 */
public final class LinkTargets {

    private LinkTargets() {
    }

    /**
     * The location {@code link} points to, given where the directory holding it really is.
     *
     * @param link             the link
     * @param resolvedParent   the link's directory, with any links above it already resolved
     */
    public static RemotePath resolve(RemotePath link, RemotePath resolvedParent) throws IOException {
        String text = link.readSymbolicLink();
        return text.startsWith("/") ? resolvedParent.root().resolve(text) : resolvedParent.resolve(text);
    }
}
