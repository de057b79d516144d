package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * sshj's uploads keep no more unanswered than half the server's channel window less a request:
 * sshj's wait for the server's window is not woken by a dead connection (a copy cut off by a
 * killed OpenSSH hung until the connection's timeout), so uploads must not need that wait.
 */
class SshjUploadBoundTest {

    @Test
    void halfTheServersWindowLessOneRequestAtMost() {
        int request = 255 * 1024;
        assertThat(SshjWire.uploadBytesInFlight(4L << 20, 2L << 20, request)).isEqualTo((1L << 20) - request);
        assertThat(SshjWire.uploadBytesInFlight(512 * 1024, 16L << 20, request)).as("the option when smaller").isEqualTo(512 * 1024);
        assertThat(SshjWire.uploadBytesInFlight(4L << 20, 64 * 1024, 32 * 1024)).as("one request at least").isEqualTo(32 * 1024);
    }
}
