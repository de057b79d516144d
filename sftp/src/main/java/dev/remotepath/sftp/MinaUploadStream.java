package dev.remotepath.sftp;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.sftp.client.RawSftpClient;
import org.apache.sshd.sftp.client.SftpMessage;
import org.apache.sshd.sftp.client.impl.SftpResponse;
import org.apache.sshd.sftp.client.impl.SftpStatus;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/**
 * A {@link PipelinedUpload} over MINA's raw client: MINA's own stream waits for the WRITEs
 * before it sends the CLOSE, and the time took a SETSTAT of its own. Requests go out through
 * {@link MinaSftpClient}, which hands each packet to the session without waiting for the socket.
 */
final class MinaUploadStream extends PipelinedUpload<MinaUploadStream.Sent> {

    /** A request queued, and its type (which its answer is parsed for). */
    record Sent(SftpMessage message, int command) {
    }

    private final RawSftpClient raw;
    private final byte[] handle;

    MinaUploadStream(RawSftpClient raw, byte[] handle, long start, int chunkSize, int inFlight, long maxBytesInFlight,
            Optional<Instant> mtime) {
        super(start, chunkSize, inFlight, maxBytesInFlight, mtime);
        this.raw = raw;
        this.handle = handle;
    }

    @Override
    Sent sendWrite(long offset, byte[] data, int length) throws IOException {
        Buffer b = handleBuffer(8 + 4 + length);
        b.putLong(offset);
        b.putBytes(data, 0, length);
        return send(SftpConstants.SSH_FXP_WRITE, b);
    }

    @Override
    Sent sendSetTimes(long seconds) throws IOException {
        Buffer b = handleBuffer(12);
        b.putUInt(SftpConstants.SSH_FILEXFER_ATTR_ACMODTIME);
        b.putUInt(seconds);
        b.putUInt(seconds);
        return send(SftpConstants.SSH_FXP_FSETSTAT, b);
    }

    @Override
    Sent sendClose() throws IOException {
        return send(SftpConstants.SSH_FXP_CLOSE, handleBuffer(0));
    }

    private Sent send(int command, Buffer b) throws IOException {
        return new Sent(raw.write(command, b), command);
    }

    private Buffer handleBuffer(int more) {
        return MinaSftpClient.handleRequest(handle, more);
    }

    @Override
    void abandon(Sent request) {
        if (raw instanceof MinaSftpClient client) {
            client.forget(request.message().getId());
        }
    }

    /** An error status becomes MINA's SftpException, as its own calls throw. */
    @Override
    void awaitOk(Sent request) throws IOException {
        SftpStatus status = SftpStatus.parse(SftpResponse.parse(request.command(), raw.receive(request.message().getId())));
        if (!status.isOk()) {
            throw new SftpException(status.getStatusCode(), status.getMessage());
        }
    }
}
