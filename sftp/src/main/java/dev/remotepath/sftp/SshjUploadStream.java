package dev.remotepath.sftp;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.sftp.FileAttributes;
import net.schmizz.sshj.sftp.PacketType;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPEngine;
import net.schmizz.sshj.sftp.SFTPException;

/**
 * A {@link PipelinedUpload} over sshj's engine. sshj's own stream waits for every WRITE's answer
 * when it is closed, and its FSETSTAT and CLOSE are a round trip each: a small file cost four
 * round trips after the OPEN, now one. Each request is on the wire when {@code request} returns
 * (sshj transmits in the caller's thread, in call order), so the server sees them in order.
 */
final class SshjUploadStream extends PipelinedUpload<Promise<Response, SFTPException>> {

    /** How often a wait for an answer looks whether the connection is still there. */
    private static final long LIVENESS_MS = 250;

    private final SFTPEngine engine;
    private final byte[] handle;
    private final java.util.function.BooleanSupplier alive;

    SshjUploadStream(SFTPEngine engine, byte[] handle, long start, int chunkSize, int inFlight, long maxBytesInFlight,
            Optional<Instant> mtime, java.util.function.BooleanSupplier alive) {
        super(start, chunkSize, inFlight, maxBytesInFlight, mtime);
        this.engine = engine;
        this.handle = handle;
        this.alive = alive;
    }

    @Override
    Promise<Response, SFTPException> sendWrite(long offset, byte[] data, int length) throws IOException {
        return engine.request(engine.newRequest(PacketType.WRITE).putString(handle).putUInt64(offset)
                .putString(data, 0, length));
    }

    @Override
    Promise<Response, SFTPException> sendSetTimes(long seconds) throws IOException {
        return engine.request(engine.newRequest(PacketType.FSETSTAT).putString(handle)
                .putFileAttributes(new FileAttributes.Builder().withAtimeMtime(seconds, seconds).build()));
    }

    @Override
    Promise<Response, SFTPException> sendClose() throws IOException {
        return engine.request(engine.newRequest(PacketType.CLOSE).putString(handle));
    }

    @Override
    void awaitOk(Promise<Response, SFTPException> request) throws IOException {
        retrieve(engine, request, alive, "an upload's request").ensureStatusPacketIsOK();
    }

    /**
     * Waits up to the engine's timeout for {@code request}'s answer, looking at the connection every
     * {@value #LIVENESS_MS} ms: sshj fails the answers it awaits when its reader sees the connection
     * end, but a request sent after that (pipelined behind others) is awaited by nobody, and would
     * hold the transfer for the whole timeout after the server is gone.
     */
    static Response retrieve(SFTPEngine engine, Promise<Response, SFTPException> request,
            java.util.function.BooleanSupplier alive, String what) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(engine.getTimeoutMs());
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            Response answer = request.tryRetrieve(Math.clamp(left, 1, LIVENESS_MS), TimeUnit.MILLISECONDS);
            if (answer != null) {
                return answer;
            }
            if (!alive.getAsBoolean()) {
                throw new java.net.SocketException("the connection closed while the answer to " + what + " was awaited");
            }
            if (left <= 0) {
                throw new java.net.SocketTimeoutException("no answer to " + what + " within " + engine.getTimeoutMs() + " ms");
            }
        }
    }
}
