package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.Capability;
import java.io.IOException;

/** Command-line arguments to paths: URIs, or local paths without a scheme. */
final class Paths {

    /** The environment variable an SFTP password may come from; otherwise it is asked at the terminal. */
    static final String SFTP_PASSWORD_ENV = "RPATH_SFTP_PASSWORD";

    private static volatile Rpath options;
    /** Whether a path of a backend that is not {@link Capability#IN_PROCESS} may be in use. */
    private static volatile boolean networkBackends;

    private Paths() {
    }

    /** The top command whose backend flags apply to every path made from now on. */
    static void use(Rpath rpath) {
        options = rpath;
    }

    static RemotePath of(String arg) throws IOException {
        RemotePath path = make(arg);
        if (!path.fileSystem().capabilities().contains(Capability.IN_PROCESS)) {
            networkBackends = true;
        }
        return path;
    }

    /** Notes that paths may come from elsewhere than {@link #of} (a script's own calls). */
    static void anyBackend() {
        networkBackends = true;
    }

    /**
     * True while every path made was on an {@link Capability#IN_PROCESS} file system (local,
     * mem): nothing to close at exit, and no threads but daemon ones.
     */
    static boolean inProcessOnly() {
        return !networkBackends;
    }

    private static RemotePath make(String arg) throws IOException {
        if (arg.isEmpty()) {
            // Not the working directory, as Path.of("") would make it: an empty argument is a mistake.
            throw new java.nio.file.InvalidPathException(arg, "empty path");
        }
        if (arg.regionMatches(true, 0, "sftp:", 0, 5) && options != null) {
            return RemotePaths.get(java.net.URI.create(arg), sftpOptions(options));
        }
        if (arg.regionMatches(true, 0, "s3:", 0, 3) && options != null) {
            return RemotePaths.get(java.net.URI.create(arg), s3Options(options));
        }
        if ((arg.regionMatches(true, 0, "http:", 0, 5) || arg.regionMatches(true, 0, "https:", 0, 6)) && options != null) {
            return RemotePaths.get(java.net.URI.create(arg), httpOptions(options));
        }
        return RemotePaths.get(arg);
    }

    /** HTTP options from the flags. */
    static dev.remotepath.http.HttpOptions httpOptions(Rpath r) {
        dev.remotepath.http.HttpOptions.Builder b = dev.remotepath.http.HttpOptions.builder()
                .lenientIndexPages(r.httpLenientIndex)
                .crossOriginRedirects(r.httpCrossOriginRedirects);
        if (r.timeout != null) {
            b.requestTimeout(r.timeout).idleTimeout(r.timeout);
        }
        if (r.httpListingTimeout != null) {
            b.listingTimeout(r.httpListingTimeout);
        }
        if (r.httpMaxIndexBytes != null) {
            b.maxIndexPageBytes(r.httpMaxIndexBytes);
        }
        if (r.httpMinRate != null) {
            b.minimumBodyRate(r.httpMinRate);
        }
        return b.build();
    }

    /** SFTP options from the flags; the password from the environment or a prompt, never a flag. */
    static dev.remotepath.sftp.SftpOptions sftpOptions(Rpath r) {
        dev.remotepath.sftp.SftpOptions.Builder b = dev.remotepath.sftp.SftpOptions.builder()
                .client(dev.remotepath.sftp.SftpOptions.Client.parse(r.sftpClient))
                .identityFiles(r.identities)
                .hostKeyPolicy(r.acceptNewHostKeys ? dev.remotepath.sftp.SftpOptions.HostKeyPolicy.ACCEPT_NEW
                        : dev.remotepath.sftp.SftpOptions.HostKeyPolicy.STRICT);
        if (r.knownHosts != null) {
            b.knownHosts(r.knownHosts);
        }
        if (r.timeout != null) {
            b.readTimeout(r.timeout);
        }
        String env = System.getenv(SFTP_PASSWORD_ENV);
        if (env != null) {
            b.password(env::toCharArray);
        } else if (System.console() != null && r.identities.isEmpty()) {
            b.password(() -> System.console().readPassword("SFTP password: "));
        }
        return b.build();
    }

    /**
     * S3 options from the flags; credentials from the AWS SDK's default chain (AWS_ACCESS_KEY_ID
     * and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws, instance roles), never a flag.
     */
    static dev.remotepath.s3.S3Options s3Options(Rpath r) {
        dev.remotepath.s3.S3Options.Builder b = dev.remotepath.s3.S3Options.builder().pathStyle(r.s3PathStyle);
        if (r.s3Endpoint != null) {
            b.endpoint(r.s3Endpoint);
        }
        if (r.s3Region != null) {
            b.region(r.s3Region);
        }
        if (r.timeout != null) {
            b.requestTimeout(r.timeout);
        }
        return b.build();
    }

    /** Unix cp/mv rule: a target that is an existing directory receives the source under its own name. */
    static RemotePath into(RemotePath source, RemotePath target) throws IOException {
        if (!source.name().isEmpty() && target.isDirectory()) {
            return target.child(source.name());
        }
        return target;
    }
}
