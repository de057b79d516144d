package dev.remotepath.spark;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.util.Objects;

/**
 * Where one side of a distributed sync lives, as a description each executor opens for itself:
 * a URI and what makes its options, never an open connection nor a secret. Credentials come
 * from where each machine finds them (the environment, the SDKs' credential chains, key files,
 * Spark's secret configuration read by an {@link OptionsFactory}). Executors open a location
 * once per JVM and share it between the tasks they run, so a location should compare equal to
 * its copies: the records made here do (an {@link OptionsFactory} that is a record, or another
 * class with value equality, keeps that; a lambda opens a file system per task).
 */
public interface Location extends Serializable {

    /** The URI, for reports and logs; never holds a secret. */
    String uri();

    /** Opens the path, where the call runs (driver or executor). */
    RemotePath open() throws IOException;

    /** A URI opened with its backend's default options ({@link RemotePaths#get(String)}). */
    static Location of(String uri) {
        return new UriLocation(uri);
    }

    /** A URI opened with the options {@code options} makes where the location is opened. */
    static Location of(String uri, OptionsFactory options) {
        return new OptionsLocation(uri, options);
    }

    /** Makes a backend's options on the machine that opens a {@link Location}. */
    @FunctionalInterface
    interface OptionsFactory extends Serializable {
        FileSystemOptions create() throws IOException;
    }

    /** {@link Location#of(String)}. */
    record UriLocation(String uri) implements Location {
        public UriLocation {
            Objects.requireNonNull(uri, "uri");
        }

        @Override
        public RemotePath open() throws IOException {
            return RemotePaths.get(uri);
        }
    }

    /** {@link Location#of(String, OptionsFactory)}. */
    record OptionsLocation(String uri, OptionsFactory options) implements Location {
        public OptionsLocation {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(options, "options");
        }

        @Override
        public RemotePath open() throws IOException {
            return RemotePaths.get(URI.create(uri), options.create());
        }

        @Override
        public String toString() {
            return uri;
        }
    }
}
