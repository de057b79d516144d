package dev.remotepath.bench;

import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.sas.BlobContainerSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import java.time.OffsetDateTime;

/**
 * Prints a day-long SAS URL for one container of the blob service a connection string names
 * ({@code AZURE_STORAGE_CONNECTION_STRING}), creating the container: how the cli suite hands
 * rclone 1.60 an emulator on a port of its own (that rclone takes an endpoint only as a domain
 * suffix, and its {@code use_emulator} mode did not answer here).
 * {@code java -cp ... dev.remotepath.bench.AzuriteSas CONTAINER}
 */
public final class AzuriteSas {

    private AzuriteSas() {
    }

    public static void main(String[] args) {
        var container = new BlobServiceClientBuilder().connectionString(System.getenv("AZURE_STORAGE_CONNECTION_STRING"))
                .buildClient().getBlobContainerClient(args[0]);
        container.createIfNotExists();
        String sas = container.generateSas(new BlobServiceSasSignatureValues(OffsetDateTime.now().plusDays(1),
                BlobContainerSasPermission.parse("racwdl")));
        System.out.println(container.getBlobContainerUrl() + "?" + sas);
    }
}
