package dev.remotepath.webdav;

/** The contract suite against `apache2` as a WebDAV server (WebDavServers). */
class ApacheWebDavContractTest extends WebDavContractTest {

    @Override
    String server() {
        return "apache2";
    }
}
