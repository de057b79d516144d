package dev.remotepath.sftp;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.Function;

/**
 * Requests and content streams whose failures come out as RemotePath's exceptions (naming the path and
 * {@code user@host:port}), never as the SSH library's own types.
 */
final class Translated {

    private Translated() {
    }

    /** A request whose failure is translated. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws IOException;
    }

    /** A request without an answer worth returning. */
    @FunctionalInterface
    interface Command {
        void run() throws IOException;
    }

    /**
     * A request the server did not answer within the read timeout, in the one form both
     * clients give it (the file system adds which operation, on which path and server).
     */
    static java.net.SocketTimeoutException noAnswer(IOException cause) {
        java.net.SocketTimeoutException t = new java.net.SocketTimeoutException(
                "no answer from the server within the read timeout");
        t.initCause(cause);
        return t;
    }

    /**
     * {@code e} as {@link #noAnswer} when its cause chain says a request timed out (a
     * {@code SocketTimeoutException} or a {@code TimeoutException}: both clients' waits for an
     * answer end in one, MINA's through {@code MinaSftpClient.receive}), else {@code e}.
     */
    static IOException timedOutOr(IOException e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof java.net.SocketTimeoutException || c instanceof java.util.concurrent.TimeoutException) {
                return noAnswer(e);
            }
        }
        return e;
    }

    static <T> T call(Call<T> call, Function<IOException, IOException> translate) throws IOException {
        try {
            return call.run();
        } catch (IOException e) {
            throw translate.apply(e);
        } catch (RuntimeException e) {
            throw translate.apply(clientFailed(e));
        }
    }

    static void run(Command command, Function<IOException, IOException> translate) throws IOException {
        try {
            command.run();
        } catch (IOException e) {
            throw translate.apply(e);
        } catch (RuntimeException e) {
            throw translate.apply(clientFailed(e));
        }
    }

    /**
     * A client library's unchecked failure inside a request (sshj answers a connection dropped
     * mid-packet with {@code ArrayIndexOutOfBoundsException: Index -5}) is a transport failure:
     * an IOException, which the file system words as the connection error it is.
     */
    static IOException clientFailed(RuntimeException e) {
        if (e instanceof java.nio.file.ClosedFileSystemException closed) {
            throw closed; // not the library's failure: the caller's use of a closed file system
        }
        return new IOException("the SSH client failed (" + e + ")", e);
    }

    static final class In extends FilterInputStream {
        private final Function<IOException, IOException> translate;
        private Runnable afterClose;

        In(InputStream in, Function<IOException, IOException> translate) {
            this(in, translate, null);
        }

        /** With {@code afterClose} run once, after the first close() (failed or not). */
        In(InputStream in, Function<IOException, IOException> translate, Runnable afterClose) {
            super(in);
            this.translate = translate;
            this.afterClose = afterClose;
        }

        @Override
        public int read() throws IOException {
            try {
                return in.read();
            } catch (IOException e) {
                throw translate.apply(e);
            } catch (RuntimeException e) {
                throw translate.apply(clientFailed(e));
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return in.read(b, off, len);
            } catch (IOException e) {
                throw translate.apply(e);
            } catch (RuntimeException e) {
                throw translate.apply(clientFailed(e));
            }
        }

        @Override
        public long skip(long n) throws IOException {
            try {
                return in.skip(n);
            } catch (IOException e) {
                throw translate.apply(e);
            } catch (RuntimeException e) {
                throw translate.apply(clientFailed(e));
            }
        }

        @Override
        public void close() throws IOException {
            try {
                in.close();
            } catch (IOException e) {
                throw translate.apply(e);
            } catch (RuntimeException e) {
                throw translate.apply(clientFailed(e));
            } finally {
                Translated.runOnce(this.afterClose);
                this.afterClose = null;
            }
        }
    }

    static final class Out extends FilterOutputStream {
        private final Function<IOException, IOException> translate;
        private Runnable afterClose;

        Out(OutputStream out, Function<IOException, IOException> translate) {
            this(out, translate, null);
        }

        /** With {@code afterClose} run once, after the first close() (failed or not). */
        Out(OutputStream out, Function<IOException, IOException> translate, Runnable afterClose) {
            super(out);
            this.translate = translate;
            this.afterClose = afterClose;
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw translate.apply(e);
            } catch (RuntimeException e) {
                throw translate.apply(clientFailed(e));
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw translate.apply(e);
            } catch (RuntimeException e) {
                throw translate.apply(clientFailed(e));
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw translate.apply(e);
            } catch (RuntimeException e) {
                throw translate.apply(clientFailed(e));
            }
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
            } catch (IOException e) {
                throw translate.apply(e);
            } catch (RuntimeException e) {
                throw translate.apply(clientFailed(e));
            } finally {
                Translated.runOnce(this.afterClose);
                this.afterClose = null;
            }
        }
    }

    private static void runOnce(Runnable r) {
        if (r != null) {
            r.run();
        }
    }
}
