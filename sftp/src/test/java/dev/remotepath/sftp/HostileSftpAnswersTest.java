package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.server.subsystem.SubsystemFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both clients' SFTP answers (sshj's read on its transport thread by {@link SshjSftpChannel},
 * MINA's matched by {@link MinaSftpClient}) against an SFTP subsystem written here byte by byte:
 * answers split across many channel packets are put back together, and an answer no request
 * awaits, an SFTP packet of a gigabyte announced, or the channel closed under a request fail that
 * request (and later ones) at once, naming why, instead of leaving them to the read timeout.
 */
class HostileSftpAnswersTest {

    private static final String USER = "tester";
    private static final String PASSWORD = "s3cret-Pa55";
    private static final int SSH_FXP_INIT = 1, SSH_FXP_VERSION = 2, SSH_FXP_LSTAT = 7, SSH_FXP_STAT = 17;
    private static final int SSH_FXP_STATUS = 101, SSH_FXP_ATTRS = 105;
    private static final int SSH_FXP_OPEN = 3, SSH_FXP_CLOSE = 4, SSH_FXP_READ = 5, SSH_FXP_FSTAT = 8;
    private static final int SSH_FXP_HANDLE = 102, SSH_FXP_DATA = 103, SSH_FXP_NAME = 104;
    private static final int SSH_FXP_OPENDIR = 11, SSH_FXP_READDIR = 12;
    private static final Duration PROMPTLY = Duration.ofSeconds(20);

    @TempDir
    Path work;
    private SshServer server;

    /** How the subsystem answers each request after the version exchange. */
    private interface Answer {
        /** {@code body}: the request after its id. */
        void to(int type, int id, ByteBuffer body, OutputStream out, ExitCallback exit) throws IOException;
    }

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.stop(true);
        }
    }

    /** Answers a stat with a 5-byte regular file, anything else as unsupported, one byte a channel packet. */
    private static final Answer BYTE_BY_BYTE = (type, id, body, out, exit) -> {
        byte[] answer = type == SSH_FXP_STAT || type == SSH_FXP_LSTAT
                ? packet(SSH_FXP_ATTRS, id, ByteBuffer.allocate(24).putInt(0x1 | 0x4 | 0x8)
                        .putLong(5).putInt(0100644).putInt(1_700_000_000).putInt(1_700_000_000).array())
                : status(id, 8, "unsupported");
        for (byte b : answer) { // each byte its own channel packet: the length too is split
            out.write(b);
            out.flush();
        }
    };

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void answersSplitIntoOneByteChannelPacketsArePutBackTogether(SftpOptions.Client client) throws Exception {
        RemotePath file = serve(client, connection -> BYTE_BY_BYTE);
        assertTimeoutPreemptively(PROMPTLY, () -> {
            FileStat stat = file.stat();
            assertThat(stat.isRegularFile()).isTrue();
            assertThat(stat.size()).hasValue(5);
            assertThat(stat.lastModified()).hasValue(java.time.Instant.ofEpochSecond(1_700_000_000));
        });
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void anAnswerToNoRequestFailsTheRequestsAtOnceNamingIt(SftpOptions.Client client) throws Exception {
        RemotePath file = serve(client, connection -> (type, id, body, out, exit) -> {
            out.write(status(id + 1000, 0, ""));
            out.flush();
        });
        assertTimeoutPreemptively(PROMPTLY, () -> {
            assertThatThrownBy(file::stat).isInstanceOf(IOException.class)
                    .hasStackTraceContaining("was not made or was answered already");
            assertThatThrownBy(file::stat).as("a later request, on the same or a new connection").isInstanceOf(IOException.class);
        });
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aConnectionWhoseAnswersBrokeIsReplacedByANewOne(SftpOptions.Client client) throws Exception {
        RemotePath file = serve(client, connection -> connection == 0 ? (type, id, body, out, exit) -> {
            out.write(status(id + 1000, 0, ""));
            out.flush();
        } : BYTE_BY_BYTE);
        assertTimeoutPreemptively(PROMPTLY, () -> assertThat(file.stat().size())
                .as("a stat is safe to repeat: asked again on a second connection").hasValue(5));
        assertThat(subsystems).hasValue(2);
        assertThat(file.stat().size()).as("the second connection stays in use").hasValue(5);
        assertThat(subsystems).hasValue(2);
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aGigabytePacketAnnouncedFailsTheRequestWithoutWaitingForIt(SftpOptions.Client client) throws Exception {
        RemotePath file = serve(client, connection -> (type, id, body, out, exit) -> {
            out.write(ByteBuffer.allocate(9).putInt(0x3fff_ffff).put((byte) SSH_FXP_STATUS).putInt(id).array());
            out.flush();
        });
        failsPromptly(file::stat, "1073741823");
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void theChannelClosedUnderARequestFailsItAtOnce(SftpOptions.Client client) throws Exception {
        RemotePath file = serve(client, connection -> (type, id, body, out, exit) -> exit.onExit(0));
        failsPromptly(file::stat, "");
        file.fileSystem().close();
    }

    // ------------------------------------------------------------------ downloads (PipelinedDownload)

    /** How the subsystem answers a READ of {@code asked} bytes at {@code offset} (the whole packet). */
    private interface Reads {
        byte[] answer(int id, long offset, int asked);
    }

    /** READs answered, over all connections. */
    private final java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();

    /** One regular file of {@code content}: stat, OPEN, READs as {@code answers} says, CLOSE. */
    private Answer serving(byte[] content, Reads answers) {
        return (type, id, body, out, exit) -> {
            byte[] answer = switch (type) {
                case SSH_FXP_STAT, SSH_FXP_LSTAT, SSH_FXP_FSTAT -> packet(SSH_FXP_ATTRS, id, ByteBuffer.allocate(24)
                        .putInt(0x1 | 0x4 | 0x8).putLong(content.length).putInt(0100644).putInt(1_700_000_000)
                        .putInt(1_700_000_000).array());
                case SSH_FXP_OPEN -> packet(SSH_FXP_HANDLE, id, ByteBuffer.allocate(5).putInt(1).put((byte) 'h').array());
                case SSH_FXP_READ -> {
                    body.position(body.position() + 4 + body.getInt()); // the handle
                    long offset = body.getLong();
                    int asked = body.getInt();
                    reads.incrementAndGet();
                    yield answers.answer(id, offset, asked);
                }
                case SSH_FXP_CLOSE -> status(id, 0, "");
                default -> status(id, 8, "unsupported");
            };
            out.write(answer);
            out.flush();
        };
    }

    /** {@code content}'s bytes from {@code offset}, at most {@code most}; end of file past its end. */
    private static byte[] data(int id, byte[] content, long offset, int most) {
        if (offset >= content.length) {
            return status(id, 1, "EOF");
        }
        int n = (int) Math.min(most, content.length - offset);
        return packet(SSH_FXP_DATA, id, ByteBuffer.allocate(4 + n).putInt(n).put(content, (int) offset, n).array());
    }

    private static byte[] content(int size) {
        byte[] b = new byte[size];
        new java.util.Random(size).nextBytes(b);
        return b;
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aSmallFileReadWholeAsksTwoReads(SftpOptions.Client client) throws Exception {
        byte[] content = content(100);
        RemotePath file = serve(client, connection -> serving(content, (id, offset, asked) -> data(id, content, offset, asked)));
        assertTimeoutPreemptively(PROMPTLY, () -> assertThat(file.readAllBytes()).isEqualTo(content));
        // Its data, then end of file: sshj's read-ahead asked 65 READs, MINA's stream a window's worth.
        assertThat(reads).hasValue(2);
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aFileServedInShortAnswersIsReadWholeInOrder(SftpOptions.Client client) throws Exception {
        byte[] content = content(300_000);
        RemotePath file = serve(client, connection -> serving(content, (id, offset, asked) -> data(id, content, offset,
                Math.min(asked, 1000 + (int) (offset % 7)))));
        assertTimeoutPreemptively(PROMPTLY, () -> {
            assertThat(file.readAllBytes()).isEqualTo(content);
            try (InputStream in = file.newInputStream(123_457)) {
                assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(content, 123_457, content.length));
            }
        });
        // About one READ per answer of ~1,000 bytes, each of the two reads: not a request per byte, nor a storm.
        assertThat(reads.get()).isBetween(300, 2 * (300 + 180) + 40);
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void moreDataThanAskedFailsTheReadNamingIt(SftpOptions.Client client) throws Exception {
        byte[] content = content(100_000);
        RemotePath file = serve(client, connection -> serving(content, (id, offset, asked) -> data(id, content, offset,
                asked + 10)));
        failsPromptly(file::readAllBytes, "a READ of 32768 bytes at offset 0 with 32778 bytes");
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void anEmptyDataAnswerFailsTheReadInsteadOfAskingForever(SftpOptions.Client client) throws Exception {
        byte[] content = content(100_000);
        RemotePath file = serve(client, connection -> serving(content, (id, offset, asked) -> offset == 0
                ? data(id, content, offset, asked) : data(id, content, offset, 0)));
        failsPromptly(file::readAllBytes, "no data and no end of file");
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aDownloadWhoseReadsAreAnsweredAByteAtATimeIsCutOffAsATrickle(SftpOptions.Client client) throws Exception {
        // every READ answered within the read timeout, with one byte, 50 ms later: 20 bytes a
        // second, a 100 kB file in over an hour
        readTimeout = Duration.ofSeconds(1);
        byte[] content = content(100_000);
        RemotePath file = serve(client, connection -> serving(content, (id, offset, asked) -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return data(id, content, offset, 1);
        }));
        assertTimeoutPreemptively(PROMPTLY, () -> assertThatThrownBy(file::readAllBytes)
                .isInstanceOf(java.net.SocketTimeoutException.class).hasMessageStartingWith("sftp://")
                .hasMessageContaining("the body trickles").hasMessageContaining("-Dremotepath.minimumBodyRate"));
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void anUploadTheServerStopsReadingFailsAfterTheReadTimeout(SftpOptions.Client client) throws Exception {
        // the server takes the OPEN, then at the first WRITE stops reading its channel: no
        // answer comes and the channel's window is never given back
        readTimeout = Duration.ofSeconds(1);
        java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
        RemotePath file = serve(client, connection -> (type, id, body, out, exit) -> {
            byte[] answer = switch (type) {
                case SSH_FXP_OPEN -> packet(SSH_FXP_HANDLE, id, ByteBuffer.allocate(5).putInt(1).put((byte) 'h').array());
                case 6 -> { // SSH_FXP_WRITE
                    try {
                        end.await(60, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    yield status(id, 4, "gone");
                }
                default -> status(id, 2, "no such file"); // stats: a new file
            };
            out.write(answer);
            out.flush();
        });
        try {
            byte[] sixteenMiB = new byte[16 << 20];
            // one read timeout for the WRITE awaited, at most a few more to send the CLOSE; before,
            // sshj's close() awaited each WRITE still in flight for a whole timeout of its own
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> file.write(sixteenMiB))
                    .isInstanceOf(java.net.SocketTimeoutException.class).hasMessageStartingWith("sftp "));
        } finally {
            end.countDown();
        }
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aListingThatStartsOverFailsNamingTheRepeatedNameInsteadOfGrowingForever(SftpOptions.Client client) throws Exception {
        // Every READDIR answers the same two names again, never end of file: read as it came,
        // such a listing never ends (and fills the heap).
        AtomicInteger readdirs = new AtomicInteger(), closes = new AtomicInteger();
        RemotePath file = serve(client, connection -> directory(n -> names("a.txt", "b.txt"), readdirs, closes));
        assertTimeoutPreemptively(PROMPTLY, () -> assertThatThrownBy(() -> file.parent().list())
                .isInstanceOf(dev.remotepath.UnsafeNameException.class).hasMessageContaining("'a.txt': listed twice")
                .hasMessageContaining("sftp://"));
        for (long end = System.nanoTime() + 5_000_000_000L; closes.get() == 0 && System.nanoTime() < end;) {
            Thread.sleep(10); // the CLOSE after a failed listing is sent, not awaited
        }
        assertThat(closes).as("the directory's handle closed, once").hasValue(1);
        assertThat(readdirs).as("READDIRs asked: the second answer repeats the first").hasValue(2);
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aListingOfEmptyAnswersWithoutEndFailsInsteadOfAskingForever(SftpOptions.Client client) throws Exception {
        AtomicInteger readdirs = new AtomicInteger(), closes = new AtomicInteger();
        RemotePath file = serve(client, connection -> directory(n -> names(), readdirs, closes));
        assertTimeoutPreemptively(PROMPTLY, () -> assertThatThrownBy(() -> file.parent().list())
                .isInstanceOf(java.nio.file.FileSystemException.class).hasMessageContaining("empty pages in a row, none the end")
                .hasMessageStartingWith("sftp://"));
        assertThat(readdirs).as("READDIRs asked").hasValue(dev.remotepath.spi.ContinuationGuard.MAX_EMPTY_PAGES + 1);
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aNameAnswerCarryingFewerNamesThanItCountsFailsTheListing(SftpOptions.Client client) throws Exception {
        byte[] one = names("a.txt");
        ByteBuffer.wrap(one).putInt(0, 5); // five names announced, one sent
        AtomicInteger readdirs = new AtomicInteger(), closes = new AtomicInteger();
        RemotePath file = serve(client, connection -> directory(n -> one, readdirs, closes));
        failsPromptly(() -> file.parent().list(), "");
        // a malformed answer is a transport failure: the connection is dropped and the listing,
        // safe to repeat, asked once more on a new one
        assertThat(readdirs).as("READDIRs asked").hasValue(2);
        assertThat(subsystems).as("connections").hasValue(2);
        file.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aListingOfNewNamesWithoutEndFailsPastTheEntryBoundInsteadOfFillingTheHeap(SftpOptions.Client client)
            throws Exception {
        // Each READDIR names 1,000 files never named before, and none is the end of file: no
        // repeat, no empty answer, only the count of names shows a listing that never ends. The
        // bound is lowered for the test: a million such names take the two clients 30-45 s here.
        AtomicInteger readdirs = new AtomicInteger(), closes = new AtomicInteger();
        RemotePath file = serve(client, connection -> directory(n -> names(java.util.stream.IntStream.range(0, 1000)
                .mapToObj(i -> "f" + n + "-" + i).toArray(String[]::new)), readdirs, closes));
        System.setProperty("remotepath.maxListingEntries", "20000");
        try {
            assertTimeoutPreemptively(PROMPTLY, () -> assertThatThrownBy(() -> file.parent().list())
                    .isInstanceOf(java.nio.file.FileSystemException.class).hasMessageStartingWith("sftp://")
                    .hasMessageContaining("more than 20,000 entries").hasMessageContaining("-Dremotepath.maxListingEntries"));
        } finally {
            System.clearProperty("remotepath.maxListingEntries");
        }
        assertThat(readdirs.get()).as("READDIRs asked: the bound's 20, and the answer that passed it")
                .isBetween(21, 21 + 64); // a client may have asked a window ahead
        assertThat(subsystems).as("an answer, not a transport failure: not asked again").hasValue(1);
        file.fileSystem().close();
    }

    /**
     * Answers OPENDIR with a handle, the n-th READDIR (from 0) with the NAME body
     * {@code names.apply(n)} and never the end of file, CLOSE with OK; counts the READDIRs and CLOSEs.
     */
    private static Answer directory(java.util.function.IntFunction<byte[]> names, AtomicInteger readdirs,
            AtomicInteger closes) {
        return (type, id, body, out, exit) -> {
            byte[] answer = switch (type) {
                case SSH_FXP_OPENDIR -> packet(SSH_FXP_HANDLE, id, ByteBuffer.allocate(5).putInt(1).put((byte) 'd').array());
                case SSH_FXP_READDIR -> packet(SSH_FXP_NAME, id, names.apply(readdirs.getAndIncrement()));
                case SSH_FXP_CLOSE -> {
                    closes.incrementAndGet();
                    yield status(id, 0, "");
                }
                default -> status(id, 8, "unsupported");
            };
            out.write(answer);
            out.flush();
        };
    }

    /** A NAME answer's body: each name with an empty long name and a 5-byte regular file's attributes. */
    private static byte[] names(String... names) {
        ByteBuffer b = ByteBuffer.allocate(4 + names.length * 64).putInt(names.length);
        for (String n : names) {
            byte[] bytes = n.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            b.putInt(bytes.length).put(bytes).putInt(0).putInt(0x1 | 0x4 | 0x8).putLong(5).putInt(0100644)
                    .putInt(1_700_000_000).putInt(1_700_000_000);
        }
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    /**
     * {@code call} fails within {@link #PROMPTLY} (not after the read timeout) with an
     * IOException whose stack trace holds {@code reason}.
     */
    private static void failsPromptly(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String reason) {
        assertTimeoutPreemptively(PROMPTLY, () -> assertThatThrownBy(call).isInstanceOf(IOException.class)
                .hasStackTraceContaining(reason));
    }

    /** The clients' read timeout: long, so that only what a test looks for can end a request. */
    private Duration readTimeout = Duration.ofSeconds(120);

    /** SFTP subsystems started, one per connection. */
    private final java.util.concurrent.atomic.AtomicInteger subsystems = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * A server whose SFTP subsystem exchanges versions, then answers every request as
     * {@code answers} says for that connection (0 for the first).
     */
    private RemotePath serve(SftpOptions.Client client, java.util.function.IntFunction<Answer> answers) throws Exception {
        server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(work.resolve("hostkey.ser")));
        server.setPasswordAuthenticator((user, password, session) -> USER.equals(user) && PASSWORD.equals(password));
        server.setSubsystemFactories(List.of(new SubsystemFactory() {
            @Override
            public String getName() {
                return "sftp";
            }

            @Override
            public Command createSubsystem(ChannelSession channel) {
                return new Subsystem(answers.apply(subsystems.getAndIncrement()));
            }
        }));
        server.start();
        Path knownHosts = TestSshServer.knownHosts(server, work.resolve("known_hosts"));
        SftpOptions options = SftpOptions.builder().password(PASSWORD::toCharArray).knownHosts(knownHosts)
                .client(client).readTimeout(readTimeout).connections(1).build();
        return RemotePaths.get(URI.create("sftp://" + USER + "@127.0.0.1:" + server.getPort() + "/srv/a.txt"), options);
    }

    private static byte[] packet(int type, int id, byte[] body) {
        return ByteBuffer.allocate(4 + 5 + body.length).putInt(5 + body.length).put((byte) type).putInt(id).put(body).array();
    }

    private static byte[] status(int id, int code, String message) {
        byte[] text = message.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return packet(SSH_FXP_STATUS, id, ByteBuffer.allocate(12 + text.length).putInt(code).putInt(text.length).put(text).putInt(0).array());
    }

    /** The SFTP subsystem: VERSION 3 with no extensions, then {@link Answer} for each request. */
    private static final class Subsystem implements Command {
        private final Answer answer;
        private InputStream in;
        private OutputStream out;
        private ExitCallback exit;
        private Thread thread;

        Subsystem(Answer answer) {
            this.answer = answer;
        }

        @Override
        public void setInputStream(InputStream in) {
            this.in = in;
        }

        @Override
        public void setOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void setErrorStream(OutputStream err) {
        }

        @Override
        public void setExitCallback(ExitCallback exit) {
            this.exit = exit;
        }

        @Override
        public void start(ChannelSession channel, Environment env) {
            thread = Thread.ofPlatform().daemon().name("hostile-sftp").start(this::run);
        }

        private void run() {
            try {
                DataInputStream requests = new DataInputStream(in);
                while (true) {
                    byte[] request = new byte[requests.readInt()];
                    requests.readFully(request);
                    int type = request[0] & 0xff;
                    if (type == SSH_FXP_INIT) {
                        out.write(ByteBuffer.allocate(9).putInt(5).put((byte) SSH_FXP_VERSION).putInt(3).array());
                        out.flush();
                    } else {
                        answer.to(type, ByteBuffer.wrap(request, 1, 4).getInt(), ByteBuffer.wrap(request, 5, request.length - 5), out, exit);
                    }
                }
            } catch (IOException closed) {
                // the client went away
            }
        }

        @Override
        public void destroy(ChannelSession channel) {
            if (thread != null) {
                thread.interrupt();
            }
        }
    }
}
