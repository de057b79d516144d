package dev.remotepath.testkit;

import dev.remotepath.spi.RemoteFileSystem;

/**
 * The api's {@link dev.remotepath.spi.ForwardingFileSystem}, under the name tests have used:
 * subclasses override what they observe or disturb (counting, fault injection, tampered listings).
 */
public class ForwardingFileSystem extends dev.remotepath.spi.ForwardingFileSystem {

    public ForwardingFileSystem(RemoteFileSystem delegate) {
        super(delegate);
    }
}
