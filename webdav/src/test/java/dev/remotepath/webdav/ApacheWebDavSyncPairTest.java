package dev.remotepath.webdav;

/** The PathSyncer pairs against `apache2` as a WebDAV server. */
class ApacheWebDavSyncPairTest extends WebDavSyncPairTest {

    @Override
    String server() {
        return "apache2";
    }
}
