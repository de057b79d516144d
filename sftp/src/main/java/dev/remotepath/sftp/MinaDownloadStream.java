package dev.remotepath.sftp;

import java.io.IOException;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.sftp.client.impl.SftpResponse;
import org.apache.sshd.sftp.client.impl.SftpStatus;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/**
 * A {@link PipelinedDownload} over {@link MinaSftpClient}. MINA's own stream sent a window's worth
 * of READs as soon as it was opened (16 of OpenSSH's 255 KiB ones), each answered, most with end
 * of file, for a file of a few bytes.
 */
final class MinaDownloadStream extends PipelinedDownload<Integer> {

    private final MinaSftpClient raw;
    private final byte[] handle;

    MinaDownloadStream(MinaSftpClient raw, byte[] handle, long start, long end, int requestSize, int maxInFlight) {
        super(start, end, requestSize, maxInFlight);
        this.raw = raw;
        this.handle = handle;
    }

    @Override
    Integer sendRead(long offset, int length) throws IOException {
        Buffer b = handleBuffer(12);
        b.putLong(offset);
        b.putUInt(length);
        return raw.write(SftpConstants.SSH_FXP_READ, b).getId();
    }

    @Override
    Data awaitData(Integer request) throws IOException {
        Buffer answer = raw.receive(request);
        int start = answer.rpos();
        answer.getInt(); // the length, checked by MINA
        int type = answer.getUByte();
        answer.getInt(); // the id, matched by MinaSftpClient
        if (type == SftpConstants.SSH_FXP_DATA) {
            int length = answer.getInt();
            if (length < 0 || length > answer.available()) {
                throw new IOException("an SFTP DATA answer announces " + (length & 0xffff_ffffL) + " bytes and carries "
                        + answer.available());
            }
            return new Data(answer.array(), answer.rpos(), length);
        }
        answer.rpos(start);
        SftpStatus status = SftpStatus.parse(SftpResponse.parse(SftpConstants.SSH_FXP_READ, answer));
        if (status.getStatusCode() == SftpConstants.SSH_FX_EOF) {
            return null;
        }
        throw new SftpException(status.getStatusCode(), status.getMessage());
    }

    @Override
    void abandon(Integer request) {
        raw.forget(request);
    }

    @Override
    void closeHandle(boolean await) throws IOException {
        raw.closeHandle(handle, await);
    }

    private Buffer handleBuffer(int more) {
        return MinaSftpClient.handleRequest(handle, more);
    }
}
