/**
 * The {@code file:} backend. Its Linux lister calls getdents64 and statx through the FFM API:
 * grant it with {@code --enable-native-access=dev.remotepath.local} on the module path
 * ({@code ALL-UNNAMED} on the class path); without it the portable NIO lister is used.
 */
module dev.remotepath.local {
    requires transitive dev.remotepath;

    exports dev.remotepath.local;

    provides dev.remotepath.spi.RemoteFileSystemProvider with dev.remotepath.local.LocalFileSystemProvider;
}
