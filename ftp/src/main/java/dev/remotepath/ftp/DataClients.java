package dev.remotepath.ftp;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import javax.net.ssl.SSLContext;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPSClient;

/**
 * Commons Net clients that open a data connection for any command and hand back its raw stream:
 * listings are read here, bounded in size and time, where Commons Net's own listing calls read
 * an answer of any size into memory and ignore the final reply of a listing cut short.
 */
final class DataClients {

    private DataClients() {
    }

    /** Opens {@code command arg}'s data connection; null where the server refused it (see the reply code). */
    interface DataOpener {
        InputStream openData(String command, String arg) throws IOException;

        /** The data connection opened last; null before the first. */
        Socket lastDataSocket();
    }

    static final class Plain extends FTPClient implements DataOpener {
        private Socket last;

        @Override
        public InputStream openData(String command, String arg) throws IOException {
            return _retrieveFileStream(command, arg);
        }

        @Override
        protected Socket _openDataConnection_(String command, String arg) throws IOException {
            return last = super._openDataConnection_(command, arg);
        }

        @Override
        public Socket lastDataSocket() {
            return last;
        }
    }

    static final class Tls extends FTPSClient implements DataOpener {
        Tls(boolean implicit, SSLContext context) {
            super(implicit, context);
        }

        Tls(boolean implicit) {
            super("TLS", implicit);
        }

        private Socket last;

        @Override
        public InputStream openData(String command, String arg) throws IOException {
            return _retrieveFileStream(command, arg);
        }

        @Override
        protected Socket _openDataConnection_(String command, String arg) throws IOException {
            return last = super._openDataConnection_(command, arg);
        }

        @Override
        public Socket lastDataSocket() {
            return last;
        }
    }
}
