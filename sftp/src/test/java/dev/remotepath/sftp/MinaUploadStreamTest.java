package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.sshd.common.io.AbstractIoWriteFuture;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.apache.sshd.sftp.client.RawSftpClient;
import org.apache.sshd.sftp.client.SftpMessage;
import org.apache.sshd.sftp.common.SftpConstants;
import org.junit.jupiter.api.Test;

/**
 * An upload keeps at most the SSH window's worth of WRITE bytes unanswered, however many
 * requests {@code requestsInFlight} allows: with OpenSSH's 255 KiB requests, 64 unanswered
 * were 16 MiB per upload, queued behind a 4 MiB window and promoted out of the young
 * generation (a sync of large files peaked at 800 MB RSS). A raw client that answers each
 * request when it is awaited measures what the stream leaves unanswered.
 */
class MinaUploadStreamTest {

    /** Records WRITEs as sent and answers OK when a request's answer is asked for. */
    private static final class Answering implements RawSftpClient {
        private int nextId = 1;
        private final Map<Integer, Integer> writeBytes = new HashMap<>();
        private final ArrayDeque<Integer> order = new ArrayDeque<>();
        long unanswered;
        long mostUnanswered;
        long written;

        @Override
        public SftpMessage write(int cmd, Buffer buffer) {
            int id = nextId++;
            int bytes = 0;
            if (cmd == SftpConstants.SSH_FXP_WRITE) {
                // the buffer holds the handle, the offset and the data: count the data
                bytes = buffer.available() - 4 - 8 - 8 - 4;
                written += bytes;
            }
            writeBytes.put(id, bytes);
            order.add(id);
            unanswered += bytes;
            mostUnanswered = Math.max(mostUnanswered, unanswered);
            return new SftpMessage(id, AbstractIoWriteFuture.fulfilled(id, Boolean.TRUE), Duration.ofSeconds(5));
        }

        @Override
        public Buffer receive(int id) {
            unanswered -= writeBytes.remove(id);
            Buffer b = new ByteArrayBuffer();
            b.putUInt(1 + 4 + 4 + 4 + 4);
            b.putByte((byte) SftpConstants.SSH_FXP_STATUS);
            b.putUInt(id);
            b.putUInt(SftpConstants.SSH_FX_OK);
            b.putString("");
            b.putString("");
            return b;
        }

        @Override
        public int send(int cmd, Buffer buffer) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Buffer receive(int id, long timeout) {
            return receive(id);
        }

        @Override
        public Buffer receive(int id, Duration timeout) {
            return receive(id);
        }
    }

    @Test
    void unansweredWriteBytesStayWithinTheWindow() throws IOException {
        Answering raw = new Answering();
        int request = 255 * 1024; // what OpenSSH's limits@openssh.com allows
        long window = 4L * 1024 * 1024;
        byte[] handle = new byte[8]; // a handle of 8 bytes, as the count above assumes
        try (MinaUploadStream out = new MinaUploadStream(raw, handle, 0, request, 64, window, Optional.empty())) {
            byte[] chunk = new byte[64 * 1024];
            for (int i = 0; i < 512; i++) { // 32 MiB
                out.write(chunk);
            }
        }
        assertThat(raw.written).isEqualTo(32L * 1024 * 1024);
        assertThat(raw.mostUnanswered).as("WRITE bytes unanswered at most").isLessThanOrEqualTo(window + request);
        assertThat(raw.unanswered).as("all answered at close").isZero();
    }

    @Test
    void smallRequestsKeepTheirRequestLimit() throws IOException {
        Answering raw = new Answering();
        try (MinaUploadStream out = new MinaUploadStream(raw, new byte[8], 0, 32 * 1024, 8, 4L * 1024 * 1024,
                Optional.empty())) {
            out.write(new byte[4 * 1024 * 1024]);
        }
        assertThat(raw.mostUnanswered).as("8 requests of 32 KiB, the request limit").isLessThanOrEqualTo(9 * 32 * 1024);
    }
}
