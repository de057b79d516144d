package dev.remotepath.sftp;

import java.net.URI;
import java.nio.file.Path;

/** Every PathSyncer case over pairs with SFTP on either side, through both clients (in-process MINA SSHD). */
class SftpSyncPairTest extends RealServerSyncPairTest {

    /** The in-process server serves the real file system, so any local absolute path is its own. */
    @Override
    RealSftpServer start(Path work, Path served) throws Exception {
        TestSshServer server = new TestSshServer(work);
        return new RealSftpServer() {
            @Override
            public URI uri(Path absolute) {
                return URI.create("sftp://" + TestSshServer.USER + "@127.0.0.1:" + server.port()
                        + dev.remotepath.UriPaths.encodePath(absolute.toString()));
            }

            @Override
            public SftpOptions.Builder optionsBuilder(SftpOptions.Client client) {
                return SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray).knownHosts(server.knownHosts)
                        .client(client);
            }

            @Override
            public String name() {
                return "SFTP";
            }

            @Override
            public void close() throws Exception {
                server.close();
            }
        };
    }
}
