package dev.remotepath;

import java.nio.file.CopyOption;

/**
 * Copy options of RemotePath beyond {@link java.nio.file.StandardCopyOption} and
 * {@link java.nio.file.LinkOption}.
 */
public enum RemoteCopyOption implements CopyOption {
    /**
     * Inside a tree, copy what symbolic links point to (directories are descended, with loop
     * detection) instead of recreating the links. Without it, links are recreated as links,
     * and a target that cannot hold links fails the copy naming the link.
     */
    FOLLOW_LINKS
}
