package dev.remotepath.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A write to a peer that stopped reading ends; one that goes through is untouched. */
class WriteDeadlineTest {

    @Test
    void aWriteBlockedOnAPeerThatNeverReadsFailsAfterTheTimeout() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket accepted = server.accept()) { // accepted, never read
            OutputStream raw = client.getOutputStream();
            OutputStream out = WriteDeadline.bounding(raw, Duration.ofMillis(300), raw, "ftp://h/big.bin", "the option");
            byte[] chunk = new byte[1 << 20];
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(() -> {
                for (int i = 0; i < 256; i++) { // far more than any socket buffers
                    out.write(chunk);
                }
            }).isInstanceOf(SocketTimeoutException.class)
                    .hasMessage("ftp://h/big.bin: the server stopped reading: a write made no progress within 300 ms "
                            + "(the option)"));
            assertThat(client.isClosed()).as("the transport closed, so nothing more is sent").isTrue();
        }
    }

    @Test
    void writesThatGoThroughAreUntouched() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        OutputStream out = WriteDeadline.bounding(sink, Duration.ofSeconds(5), sink, "x", "o");
        out.write('a');
        out.write(new byte[] {'b', 'c'}, 0, 2);
        out.flush();
        assertThat(sink.toString()).isEqualTo("abc");
    }
}
