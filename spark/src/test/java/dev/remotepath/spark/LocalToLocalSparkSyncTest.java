package dev.remotepath.spark;

import java.nio.file.Path;

/** The pair contract, local disk to local disk. */
class LocalToLocalSparkSyncTest extends SparkSyncPairContract {

    @Override
    Location source(Path dir) {
        return Location.of(dir.toUri().toString());
    }

    @Override
    Location target(String name) {
        return Location.of(temp.resolve("dst-" + name).toUri().toString());
    }
}
