package dev.remotepath.azure;

import com.azure.core.util.polling.PollResponse;
import com.azure.core.util.polling.SyncPoller;
import com.azure.storage.blob.models.BlobCopyInfo;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.CopyStatusType;
import com.azure.storage.blob.options.BlobBeginCopyOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Timeouts;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.Optional;

/**
 * Server-side copies within the account (Copy Blob): the service copies content, Content-MD5
 * and metadata (the {@code mtime} among them), so a copy keeps its source's time. Within one
 * account the copy completes at once; one still pending is waited for, and one that ends
 * other than in success is deleted, so no partial blob stays under the target's name.
 */
final class AzureServerCopy {

    private final AzureFileSystem fs;

    AzureServerCopy(AzureFileSystem fs) {
        this.fs = fs;
    }

    void copy(RemotePath source, String sourceName, RemotePath target, String targetName, Optional<String> sourceEtag,
            boolean createOnly) throws IOException {
        String url = fs.blob(sourceName).getBlobUrl();
        if (fs.options().credentials() instanceof AzureCredentials.SasToken sas) {
            url += "?" + sas.token(); // the source is authorised by its URL alone
        }
        BlobBeginCopyOptions o = new BlobBeginCopyOptions(url).setPollInterval(Duration.ofMillis(200));
        if (createOnly) {
            o.setDestinationRequestConditions(new BlobRequestConditions().setIfNoneMatch("*"));
        }
        PollResponse<BlobCopyInfo> done;
        try {
            SyncPoller<BlobCopyInfo, Void> poller = fs.blob(targetName).beginCopy(o);
            done = poller.waitForCompletion(Timeouts.times(fs.options().requestTimeout(), 10));
        } catch (RuntimeException e) {
            BlobErrorCode code = AzureErrors.code(e);
            if (BlobErrorCode.CANNOT_VERIFY_COPY_SOURCE.equals(code) || BlobErrorCode.BLOB_NOT_FOUND.equals(code)) {
                NoSuchFileException x = new NoSuchFileException(source.toString());
                x.initCause(e);
                throw x;
            }
            throw createOnly ? AzureErrors.createOnly(e, target.toString()) : AzureErrors.translate(e, target.toString());
        }
        CopyStatusType status = done.getValue() == null ? null : done.getValue().getCopyStatus();
        if (!CopyStatusType.SUCCESS.equals(status)) {
            try {
                fs.blob(targetName).getBlockBlobClient().abortCopyFromUrl(done.getValue().getCopyId());
            } catch (RuntimeException ignored) {
                // already ended; the delete below removes what is there
            }
            try {
                fs.blob(targetName).delete();
            } catch (RuntimeException ignored) {
                // nothing there
            }
            throw new FileSystemException(target.toString(), null, "server-side copy from " + source + " ended "
                    + status + (done.getValue() == null ? "" : " (" + done.getValue().getError() + ")"));
        }
    }
}
