package dev.remotepath.tree;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;

/**
 * Where a symbolic link leads, resolved as {@code realpath(3)} does: its text is joined to the
 * (already resolved) directory that holds it one component at a time, and every component that
 * is itself a link is followed (LSTAT, then READLINK), at most {@value #MAX_HOPS} links deep.
 * Backends without file identities (SFTP, S3, HTTP) detect link loops with it: following a link
 * to the directory being walked, or to one above it, would never end, and a loop through an
 * alias ({@code alias -> .}, {@code src/a -> ../alias/src}) is only seen once the alias is
 * resolved. (A server's own REALPATH is not trusted for this: MINA's resolves lexically.)
 */
public final class LinkTargets {

    /** Links followed while resolving one path, as Linux's {@code MAXSYMLINKS}. */
    static final int MAX_HOPS = 40;

    private LinkTargets() {
    }

    /**
     * The location {@code link} points to, given where the directory holding it really is.
     *
     * @param link             the link
     * @param resolvedParent   the link's directory, with any links above it already resolved
     */
    public static RemotePath resolve(RemotePath link, RemotePath resolvedParent) throws IOException {
        if (link.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.IN_PROCESS)) {
            try {
                return link.fileSystem().realPath(link); // one system call where the system resolves
            } catch (NoSuchFileException dangling) {
                // resolve the text below, as far as it goes
            }
        }
        String text = link.readSymbolicLink();
        int[] hops = {1};
        return follow(link, text.startsWith("/") ? resolvedParent.root() : resolvedParent, text, hops);
    }

    /** Every link on {@code root}'s path resolved, component by component ({@link RealPaths#resolve}'s remote case). */
    static RemotePath startOf(RemotePath root) throws IOException {
        return follow(root, root.root(), root.pathString(), new int[] {0});
    }

    private static RemotePath follow(RemotePath what, RemotePath base, String text, int[] hops) throws IOException {
        if (text.length() > TraversalLimits.MAX_PATH_LENGTH) {
            // A server's link text costs one LSTAT per component: a hostile one is not walked.
            throw new FileSystemLoopException(what + " (a symbolic link's text is longer than "
                    + TraversalLimits.MAX_PATH_LENGTH + " characters)");
        }
        RemoteFileSystem fs = base.fileSystem();
        RemotePath current = base;
        boolean missing = false;
        for (String part : text.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                current = current.parent();
                continue;
            }
            RemotePath next = current.child(part);
            if (missing) {
                current = next; // below a missing component nothing can be a link
                continue;
            }
            FileStat stat;
            try {
                stat = fs.stat(next, false);
            } catch (NoSuchFileException absent) {
                missing = true;
                current = next;
                continue;
            }
            if (!stat.isSymbolicLink()) {
                current = next;
                continue;
            }
            if (++hops[0] > MAX_HOPS) {
                throw new FileSystemLoopException(what + " (more than " + MAX_HOPS + " symbolic links to resolve)");
            }
            String inner = fs.readSymbolicLink(next);
            current = follow(what, inner.startsWith("/") ? current.root() : current, inner, hops);
        }
        return current;
    }

    /**
     * Whether a target link with text {@code targetText} already stands for a source link with
     * text {@code sourceText}: the same text, or the same place once the relative one is joined
     * to the directory of the link it would sit in and {@code .}/{@code ..} are folded. Some
     * servers (ProFTPD's mod_sftp) answer READLINK with an absolute path for a relative link;
     * without this every run would find the link changed and make it again.
     */
    public static boolean sameDestination(String sourceText, RemotePath sourceLink, String targetText,
            RemotePath targetLink) {
        if (sourceText.equals(targetText)) {
            return true;
        }
        boolean sourceAbsolute = sourceText.startsWith("/");
        boolean targetAbsolute = targetText.startsWith("/");
        if (sourceAbsolute == targetAbsolute) {
            return false;
        }
        return sourceAbsolute ? sourceText.equals(lexical(sourceLink.parent().pathString(), targetText))
                : targetText.equals(lexical(targetLink.parent().pathString(), sourceText));
    }

    /** {@code text} joined to {@code directory}, {@code .} and {@code ..} folded without looking at the disk. */
    static String lexical(String directory, String text) {
        java.util.ArrayDeque<String> parts = new java.util.ArrayDeque<>();
        for (String part : (directory + "/" + text).split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                parts.pollLast();
            } else {
                parts.addLast(part);
            }
        }
        return "/" + String.join("/", parts);
    }

    /**
     * {@code link}'s text, reconciled with the size its listing gave. A link's size is the length
     * of its text; a server that answers READLINK with an absolute path for a relative link
     * (ProFTPD's mod_sftp) gives itself away when the two differ: the text written was relative,
     * and the relative path from the link's directory to the answer leads where it led (folded:
     * {@code ../sub/x} written in {@code sub} comes back as {@code x}), in any copy of the tree,
     * where the absolute answer would lead back into the original. Otherwise the answer stands.
     */
    public static String textOf(RemotePath link, FileStat listed) throws IOException {
        String text = link.readSymbolicLink();
        if (!text.startsWith("/") || !listed.isSymbolicLink() || listed.size().isEmpty()
                || listed.size().getAsLong() == byteLength(text)) {
            return text;
        }
        return relative(link.parent().pathString(), text);
    }

    private static long byteLength(String text) {
        return text.getBytes(dev.remotepath.NameBytes.CHARSET).length;
    }

    /** The relative path from directory {@code from} to {@code to}, both absolute and folded. */
    static String relative(String from, String to) {
        String[] a = lexical(from, ".").substring(1).split("/", -1);
        String[] b = lexical("/", to).substring(1).split("/", -1);
        int common = 0;
        while (common < a.length && common < b.length && a[common].equals(b[common]) && !a[common].isEmpty()) {
            common++;
        }
        StringBuilder out = new StringBuilder();
        for (int i = common; i < a.length; i++) {
            if (!a[i].isEmpty()) {
                out.append("../");
            }
        }
        for (int i = common; i < b.length; i++) {
            out.append(b[i]).append('/');
        }
        return out.length() == 0 ? "." : out.substring(0, out.length() - 1);
    }
}
