package dev.remotepath.azure;

import com.azure.core.util.Context;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobErrorCode;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;

/**
 * A file system's root is its container: statted by Get Container Properties (a missing one is
 * "no such container") and made by {@code createDirectory} of the root, as {@code rclone mkdir}
 * makes it (an existing one is {@link FileAlreadyExistsException}).
 */
final class AzureContainers {

    private AzureContainers() {
    }

    static FileStat stat(BlobContainerClient client, RemotePath root) throws IOException {
        try {
            client.getPropertiesWithResponse(null, null, Context.NONE);
        } catch (RuntimeException e) {
            if (AzureErrors.isNotFound(e)) {
                throw new NoSuchFileException(root.toString(), null, "no such container");
            }
            throw AzureErrors.translate(e, root.toString());
        }
        return FileStat.ofType(FileType.DIRECTORY);
    }

    static void create(BlobContainerClient client, RemotePath root) throws IOException {
        try {
            client.createWithResponse(null, null, null, Context.NONE);
        } catch (RuntimeException e) {
            if (BlobErrorCode.CONTAINER_ALREADY_EXISTS.equals(AzureErrors.code(e))) {
                throw new FileAlreadyExistsException(root.toString());
            }
            throw AzureErrors.translate(e, root.toString());
        }
    }
}
