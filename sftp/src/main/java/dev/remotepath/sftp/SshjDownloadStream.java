package dev.remotepath.sftp;

import java.io.IOException;
import java.util.function.BooleanSupplier;
import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.sftp.PacketType;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPEngine;
import net.schmizz.sshj.sftp.SFTPException;

/**
 * A {@link PipelinedDownload} over sshj's engine. sshj's own read-ahead sent 65 READs of the
 * reader's buffer size as soon as a file was read, each answered, most with end of file, for a
 * file of a few bytes; and after one short answer it asked no more than that answer's size for
 * the rest of the file.
 */
final class SshjDownloadStream extends PipelinedDownload<Promise<Response, SFTPException>> {

    private final SFTPEngine engine;
    private final byte[] handle;
    private final BooleanSupplier alive;

    SshjDownloadStream(SFTPEngine engine, byte[] handle, long start, long end, int requestSize, int maxInFlight,
            BooleanSupplier alive) {
        super(start, end, requestSize, maxInFlight);
        this.engine = engine;
        this.handle = handle;
        this.alive = alive;
    }

    @Override
    Promise<Response, SFTPException> sendRead(long offset, int length) throws IOException {
        return engine.request(engine.newRequest(PacketType.READ).putString(handle).putUInt64(offset).putUInt32(length));
    }

    @Override
    Data awaitData(Promise<Response, SFTPException> request) throws IOException {
        Response answer = SshjWire.awaitAnswer(engine, request, alive, "a download's READ");
        if (answer.getType() == PacketType.DATA) {
            int length = answer.readUInt32AsInt();
            if (length < 0 || length > answer.available()) {
                throw new IOException("an SFTP DATA answer announces " + (length & 0xffff_ffffL) + " bytes and carries "
                        + answer.available());
            }
            return new Data(answer.array(), answer.rpos(), length);
        }
        answer.ensureStatusIs(Response.StatusCode.EOF); // any other status is thrown as sshj's SFTPException
        return null;
    }

    /** sshj delivers an answer nobody retrieves to its promise, which is then dropped with it. */
    @Override
    void abandon(Promise<Response, SFTPException> request) {
    }

    @Override
    void closeHandle(boolean await) throws IOException {
        Promise<Response, SFTPException> closing = SshjWire.sendClose(engine, handle);
        if (await) {
            SshjWire.awaitAnswer(engine, closing, alive, "a download's CLOSE").ensureStatusPacketIsOK();
        }
    }
}
