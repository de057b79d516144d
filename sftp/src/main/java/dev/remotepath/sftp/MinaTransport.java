package dev.remotepath.sftp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousSocketChannel;
import org.apache.sshd.common.FactoryManager;
import org.apache.sshd.common.io.IoConnector;
import org.apache.sshd.common.io.IoHandler;
import org.apache.sshd.common.io.IoServiceFactory;
import org.apache.sshd.common.io.nio2.Nio2CompletionHandler;
import org.apache.sshd.common.io.nio2.Nio2Connector;
import org.apache.sshd.common.io.nio2.Nio2Service;
import org.apache.sshd.common.io.nio2.Nio2ServiceFactory;
import org.apache.sshd.common.io.nio2.Nio2ServiceFactoryFactory;
import org.apache.sshd.common.io.nio2.Nio2Session;
import org.apache.sshd.common.util.Readable;
import org.apache.sshd.common.util.threads.CloseableExecutorService;
import org.apache.sshd.common.util.threads.SshdThreadFactory;
import org.apache.sshd.common.util.threads.ThreadUtils;

/**
 * MINA's NIO2 transport for one client. Its sockets are polled by the threads that handle what
 * they read: MINA's own transport polls on a JDK thread that hands every read to a pool thread
 * to handle, a second wake-up and switch for every SSH packet on top of the one that wakes the
 * waiting request (a first sync of 10,000 small files into OpenSSH ~10% slower,
 * docs/benchmarks.md "MINA's reads handled where they are polled"). Two threads, so that one
 * waiting in a handler (a host-key prompt, an agent's signature) leaves the other to serve.
 * Until {@link #settle settled}, its sessions also acknowledge each read at once
 * ({@link QuickAcks}).
 */
final class MinaTransport extends Nio2ServiceFactoryFactory {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MinaTransport.class);

    /** The threads polling and handling one client's sockets (its hops' sessions ride on them too). */
    static final int POLLING_THREADS = 2;

    /** What the polling threads' names carry after the client's name. */
    static final String POLLING_NAME = "-nio2-polling";

    private volatile boolean settingUp = true;

    /** The set-up is over: reads are acknowledged as the kernel sees fit from now on. */
    void settle() {
        settingUp = false;
    }

    @Override
    public IoServiceFactory create(FactoryManager manager) {
        AsynchronousChannelGroup polling;
        try {
            polling = AsynchronousChannelGroup.withFixedThreadPool(POLLING_THREADS, new SshdThreadFactory(manager + POLLING_NAME));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the threads of an SSH client's sockets", e);
        }
        // MINA resumes suspended reads on this executor; its threads start when first needed.
        CloseableExecutorService resuming = ThreadUtils.newFixedThreadPool(manager + "-nio2-resume", 1);
        return new Polled(manager, polling, resuming);
    }

    /**
     * MINA's factory with connectors on the polling group. (Its constructor still makes the group
     * MINA would have used; nothing is registered with it, and it is shut down with the factory.)
     */
    private final class Polled extends Nio2ServiceFactory {
        private final AsynchronousChannelGroup polling;
        private final CloseableExecutorService resuming;

        Polled(FactoryManager manager, AsynchronousChannelGroup polling, CloseableExecutorService resuming) {
            super(manager, null, resuming);
            this.polling = polling;
            this.resuming = resuming;
        }

        @Override
        public IoConnector createConnector(IoHandler handler) {
            return autowireCreatedService(new Nio2Connector(this, getFactoryManager(), handler, polling, resuming));
        }

        @Override
        public Nio2Session createSession(Nio2Service service, IoHandler handler, AsynchronousSocketChannel socket,
                SocketAddress acceptance) throws Throwable {
            return new Nio2Session(service, getFactoryManager(), handler, socket, acceptance) {
                @Override
                protected void handleReadCycleCompletion(ByteBuffer buffer, Readable reader,
                        Nio2CompletionHandler<Integer, Object> completion, Integer result, Object attachment) {
                    if (settingUp) {
                        QuickAcks.now(getSocket());
                    }
                    super.handleReadCycleCompletion(buffer, reader, completion, result, attachment);
                }
            };
        }

        @Override
        protected void doCloseImmediately() {
            try {
                // Closes every socket of the group, and its threads end; not awaited, since this
                // may run on one of them.
                polling.shutdownNow();
            } catch (IOException e) {
                LOG.debug("closing an SSH client's polling threads: {}", e.toString());
            } finally {
                super.doCloseImmediately();
            }
        }
    }
}
