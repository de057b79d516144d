package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The upload both clients share: a small file's last WRITE, its FSETSTAT and its CLOSE go out
 * before any answer is awaited (one round trip after the OPEN, where sshj's own stream took
 * four), the time is set after the last byte, the CLOSE is sent even after a WRITE failed, and
 * the first failure is what close() reports.
 */
class PipelinedUploadTest {

    /** Records what is sent and awaited, in order; a request named in {@code failing} answers with an error. */
    private static final class Recording extends PipelinedUpload<String> {
        final List<String> events = new ArrayList<>();
        final List<String> failing = new ArrayList<>();
        private int n;
        int unanswered;
        int mostUnanswered;

        Recording(int chunkSize, int inFlight, Optional<Instant> mtime) {
            super(0, chunkSize, inFlight, Long.MAX_VALUE, mtime);
        }

        private String sent(String what) {
            String r = what + "#" + ++n;
            events.add("send " + r);
            mostUnanswered = Math.max(mostUnanswered, ++unanswered);
            return r;
        }

        @Override
        String sendWrite(long offset, byte[] data, int length) {
            return sent("WRITE@" + offset + "+" + length);
        }

        @Override
        String sendSetTimes(long seconds) {
            return sent("FSETSTAT=" + seconds);
        }

        @Override
        String sendClose() {
            return sent("CLOSE");
        }

        /** Requests that time out instead of being answered. */
        final List<String> silent = new ArrayList<>();

        @Override
        void awaitOk(String request) throws IOException {
            unanswered--;
            events.add("await " + request);
            if (failing.stream().anyMatch(request::startsWith)) {
                throw new IOException(request + " failed");
            }
            if (silent.stream().anyMatch(request::startsWith)) {
                throw new java.net.SocketTimeoutException(request + " unanswered");
            }
        }

        @Override
        void abandon(String request) {
            unanswered--;
            events.add("abandon " + request);
        }
    }

    @Test
    void afterARequestWentUnansweredTheRestAreDroppedNotAwaitedOneTimeoutEach() throws IOException {
        // a server that stopped reading: awaiting each of the WRITEs still in flight for a whole
        // timeout held close() for as many timeouts
        Recording up = new Recording(4, 3, Optional.of(Instant.ofEpochSecond(1_700_000_000)));
        up.silent.add("WRITE");
        assertThatThrownBy(() -> up.write(new byte[20])).isInstanceOf(java.net.SocketTimeoutException.class);
        assertThatThrownBy(up::close).isInstanceOf(java.net.SocketTimeoutException.class)
                .hasMessageContaining("stalled");
        assertThat(up.events).containsExactly("send WRITE@0+4#1", "send WRITE@4+4#2", "send WRITE@8+4#3",
                "send WRITE@12+4#4", "await WRITE@0+4#1", "send CLOSE#5", "abandon WRITE@4+4#2",
                "abandon WRITE@8+4#3", "abandon WRITE@12+4#4", "abandon CLOSE#5");
        assertThat(up.unanswered).as("every request awaited or dropped").isZero();
    }

    @Test
    void aSmallFileSendsWriteTimeAndCloseBeforeAwaitingAnyAnswer() throws IOException {
        Recording up = new Recording(32 * 1024, 64, Optional.of(Instant.ofEpochSecond(1_700_000_000)));
        up.write(new byte[4096]);
        assertThat(up.events).as("nothing sent while the first chunk fills").isEmpty();
        up.close();
        assertThat(up.events).containsExactly("send WRITE@0+4096#1", "send FSETSTAT=1700000000#2", "send CLOSE#3",
                "await WRITE@0+4096#1", "await FSETSTAT=1700000000#2", "await CLOSE#3");
        up.close(); // a second close sends nothing
        assertThat(up.events).hasSize(6);
    }

    @Test
    void writesStayWithinTheRequestLimitAndTheTimeFollowsTheLastByte() throws IOException {
        Recording up = new Recording(32 * 1024, 4, Optional.of(Instant.ofEpochSecond(5)));
        up.write(new byte[1024 * 1024]);
        up.close();
        // the limit, one more just sent, and at close the FSETSTAT and CLOSE behind the last WRITE
        assertThat(up.mostUnanswered).as("unanswered requests at most").isLessThanOrEqualTo(4 + 2);
        List<String> sends = up.events.stream().filter(e -> e.startsWith("send")).toList();
        assertThat(sends).hasSize(32 + 2);
        assertThat(sends.get(sends.size() - 2)).startsWith("send FSETSTAT");
        assertThat(sends.getLast()).startsWith("send CLOSE");
        assertThat(up.unanswered).isZero();
    }

    @Test
    void aFailedWriteStillClosesTheHandleAndIsWhatCloseReports() {
        Recording up = new Recording(32 * 1024, 64, Optional.empty());
        up.failing.add("WRITE");
        assertThatThrownBy(() -> {
            up.write(new byte[100]);
            up.close();
        }).isInstanceOf(IOException.class).hasMessageStartingWith("WRITE@0+100");
        assertThat(up.events).contains("send CLOSE#2", "await CLOSE#2");
        assertThatThrownBy(() -> up.write(1)).isInstanceOf(IOException.class).hasMessageContaining("closed");
    }
}
