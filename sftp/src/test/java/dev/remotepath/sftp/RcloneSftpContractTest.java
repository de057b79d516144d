package dev.remotepath.sftp;

import java.nio.file.Files;
import java.nio.file.Path;

/** The whole contract (MINA client) against rclone's {@code serve sftp} over a local directory. */
class RcloneSftpContractTest extends RealSftpServerContractTest {

    @Override
    RealSftpServer startServer(Path work) throws Exception {
        requireInstalled(RcloneSftpd.RCLONE, "rclone", "rclone");
        return new RcloneSftpd(Files.createDirectories(work.resolve("rclone")), Files.createDirectories(servedRoot(work)));
    }

    @Override
    Path servedRoot(Path work) {
        return work.resolve("served");
    }

    /** rclone's local backend skips links (it logs a notice) and its server refuses SYMLINK. */
    @Override
    protected boolean serverKeepsSymbolicLinks() {
        return false;
    }

    /** It shows every file as 0666 and every directory as 0777, less its umask, whatever SETSTAT sent. */
    @Override
    protected boolean serverKeepsPermissions() {
        return false;
    }

    /** Its VFS cannot seek in a file it writes without {@code --vfs-cache-mode writes}: APPEND fails. */
    @Override
    protected boolean serverCanAppend() {
        return false;
    }
}
