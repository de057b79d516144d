package dev.remotepath.sftp;

import java.io.IOException;
import java.nio.file.FileSystemException;

/**
 * Puts symbolic links exactly where they are asked for, whatever order a server reads
 * {@code SSH_FXP_SYMLINK}'s two paths in. OpenSSH's sftp-server (and MINA's, following it)
 * take the target first; the protocol draft, and servers that follow it (gesftpserver), take
 * the link's path first. Sent in the wrong order, the link lands at the target's path, maybe
 * outside the tree, and the server reports success.
 *
 * <p>So before the first link of a file system, the order is probed inside the directory that
 * is to hold the link: a dangling link between two fresh {@code .rptmp} names, looked at with
 * LSTAT to see which of the two became the link, then removed. Every link is then sent in that
 * order and checked with LSTAT before success is reported; a link that is not where it was
 * asked for fails the operation.
 */
final class SymlinkPlacement {

    /** How the server reads SYMLINK's two strings. */
    enum Order {
        /** Target path first, then the link's path (OpenSSH, MINA). */
        TARGET_FIRST,
        /** The link's path first, then its target (draft-ietf-secsh-filexfer-02, gesftpserver). */
        LINK_FIRST
    }

    private volatile Order order;

    /** The order found so far, or null before the first link. */
    Order order() {
        return order;
    }

    /**
     * Creates {@code link} with text {@code target} and checks that it is there.
     *
     * @param directory the absolute path of the link's directory, where the probe runs
     */
    void create(SftpWire wire, String directory, String link, String target) throws IOException {
        Order o = order;
        if (o == null) {
            o = probe(wire, directory);
            order = o;
        }
        send(wire, o, link, target);
        SftpWire.Attributes placed;
        try {
            placed = ServerSemantics.lstat(wire, link); // ProFTPD's LSTAT follows a link whose target exists
        } catch (SftpStatusException missing) {
            throw new FileSystemException(link, null, "the server answered SYMLINK with success but no link is there; "
                    + "the link was not created");
        }
        if (placed.kind() != SftpWire.Attributes.Kind.SYMLINK) {
            throw new FileSystemException(link, null, "the server answered SYMLINK with success but what is there is "
                    + "not a symbolic link");
        }
    }

    /**
     * {@link SftpWire#symlink} sends the target first (OpenSSH's order); for a draft server the
     * two arguments are given the other way round, which puts the link's path first on the wire.
     */
    private static void send(SftpWire wire, Order o, String link, String target) throws IOException {
        if (o == Order.TARGET_FIRST) {
            wire.symlink(link, target);
        } else {
            wire.symlink(target, link);
        }
    }

    private static Order probe(SftpWire wire, String directory) throws IOException {
        String in = directory.endsWith("/") ? directory : directory + "/";
        // Temporaries' names: a probe link left by a killed run is never synced, and is cleaned up.
        String a = in + dev.remotepath.tree.FileTransfer.temporaryName("rpsymlink-a");
        String b = in + dev.remotepath.tree.FileTransfer.temporaryName("rpsymlink-b");
        wire.symlink(a, b); // on an OpenSSH-order server: a -> b; on a draft server: b -> a
        boolean atA = isLink(wire, a);
        boolean atB = isLink(wire, b);
        if (atA) {
            wire.remove(a);
        }
        if (atB) {
            wire.remove(b);
        }
        if (atA == atB) {
            throw new FileSystemException(directory, null, "cannot tell where this server puts symbolic links "
                    + "(SYMLINK succeeded, and " + (atA ? "both" : "neither") + " probe path became a link)");
        }
        return atA ? Order.TARGET_FIRST : Order.LINK_FIRST;
    }

    private static boolean isLink(SftpWire wire, String path) throws IOException {
        try {
            return wire.lstat(path).kind() == SftpWire.Attributes.Kind.SYMLINK;
        } catch (SftpStatusException missing) {
            return false;
        }
    }
}
