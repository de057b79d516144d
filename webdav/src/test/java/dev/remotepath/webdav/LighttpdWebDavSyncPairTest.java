package dev.remotepath.webdav;

/** The PathSyncer pairs against `lighttpd` as a WebDAV server. */
class LighttpdWebDavSyncPairTest extends WebDavSyncPairTest {

    @Override
    String server() {
        return "lighttpd";
    }
}
