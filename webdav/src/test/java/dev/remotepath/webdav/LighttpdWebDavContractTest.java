package dev.remotepath.webdav;

/** The contract suite against `lighttpd` as a WebDAV server (WebDavServers). */
class LighttpdWebDavContractTest extends WebDavContractTest {

    @Override
    String server() {
        return "lighttpd";
    }
}
