package dev.remotepath.webdav;

/** The contract suite against `rclone` as a WebDAV server (WebDavServers). */
class RcloneWebDavContractTest extends WebDavContractTest {

    @Override
    String server() {
        return "rclone";
    }
}
