package dev.remotepath.spi.nio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a bare {@link java.nio.file.FileSystemException} from the JDK was. NIO gives ENOTDIR and
 * ELOOP no type of their own, only {@code strerror}'s text, which follows the process's locale
 * ("Not a directory", "Kein Verzeichnis"): so the cause is found by looking at the path, never by
 * reading the message. Only on the error path, where a few more stats cost nothing.
 */
final class NioErrors {

    /** What the kernel follows before ELOOP (Linux's MAXSYMLINKS). */
    private static final int MAX_LINKS = 40;

    enum Cause {
        /** ENOTDIR while resolving: an ancestor is not a directory, so the path does not exist. */
        PARENT_NOT_A_DIRECTORY,
        /** ELOOP: following the path's links does not end. */
        LINK_LOOP,
        /** Anything else: kept as it came. */
        OTHER
    }

    private NioErrors() {
    }

    static Cause causeOf(Path path) {
        Path absolute = path.toAbsolutePath();
        if (linkLoop(absolute)) {
            return Cause.LINK_LOOP;
        }
        for (Path a = absolute.getParent(); a != null; a = a.getParent()) {
            if (Files.exists(a) && !Files.isDirectory(a)) {
                return Cause.PARENT_NOT_A_DIRECTORY;
            }
        }
        return Cause.OTHER;
    }

    /** Whether resolving {@code path} as realpath(3) does meets more than {@link #MAX_LINKS} links. */
    static boolean linkLoop(Path path) {
        Deque<String> rest = new ArrayDeque<>();
        for (Path name : path) {
            rest.addLast(name.toString());
        }
        Path at = path.getRoot();
        int links = 0;
        while (!rest.isEmpty()) {
            String name = rest.removeFirst();
            if (name.equals(".") || name.isEmpty()) {
                continue;
            }
            if (name.equals("..")) {
                at = at.getParent() == null ? at : at.getParent();
                continue;
            }
            Path next = at.resolve(name);
            if (!Files.isSymbolicLink(next)) {
                if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                    return false; // the path ends here: no loop on it
                }
                at = next;
                continue;
            }
            if (++links > MAX_LINKS) {
                return true;
            }
            Path target;
            try {
                target = Files.readSymbolicLink(next);
            } catch (IOException | UnsupportedOperationException e) {
                return false;
            }
            Deque<String> expanded = new ArrayDeque<>();
            for (Path t : target) {
                expanded.addLast(t.toString());
            }
            while (!expanded.isEmpty()) {
                rest.addFirst(expanded.removeLast());
            }
            if (target.isAbsolute()) {
                at = target.getRoot();
            }
        }
        return false;
    }
}
