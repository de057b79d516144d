package dev.remotepath.sftp;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
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
        return SshjWire.sendClose(engine, handle);
    }

    /** sshj delivers an answer nobody retrieves to its promise, which is then dropped with it. */
    @Override
    void abandon(Promise<Response, SFTPException> request) {
    }

    @Override
    void awaitOk(Promise<Response, SFTPException> request) throws IOException {
        SshjWire.awaitAnswer(engine, request, alive, "an upload's request").ensureStatusPacketIsOK();
    }
}
