package dev.remotepath.spi;

import dev.remotepath.RemotePath;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Makes a {@code java.nio.file.Path} of a RemotePath on a provider of {@code java.nio.file}
 * (remotepath-nio registers one, found through {@link java.util.ServiceLoader}), so that
 * {@link RemotePath#toNioPath()} answers for every scheme when that artifact is present, while
 * this module stays free of it.
 */
public interface NioPathFactory {

    /** {@code path} (absolute) as a NIO path over the same backend file system, where this factory has a provider for its scheme. */
    Optional<Path> pathOf(RemotePath path);
}
