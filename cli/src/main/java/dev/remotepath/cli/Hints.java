package dev.remotepath.cli;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes the library's hints name what a command-line user can do. The backends' messages name
 * the option that would change an outcome as code ({@code HttpOptions.lenientIndexPages},
 * {@code PathSyncer.Builder.allowEmptySource}, {@code -Dremotepath.maxDepth}); here each such
 * reference becomes the flag or variable of {@code rpath} that sets it. The references are the
 * library's own identifiers, not its prose, and HintsTest checks that every one the library's
 * sources use has a translation.
 */
final class Hints {

    /** What the library writes, to what the CLI user gives instead. */
    static final Map<String, String> CLI = Map.ofEntries(
            Map.entry("HttpOptions.lenientIndexPages", "--http-lenient-index"),
            Map.entry("HttpOptions.maxIndexPageBytes", "--http-max-index-bytes"),
            Map.entry("HttpOptions.minimumBodyRate", "--http-min-rate"),
            Map.entry("HttpOptions.crossOriginRedirects", "--http-cross-origin-redirects"),
            Map.entry("HttpOptions.listingTimeout", "--http-listing-timeout"),
            Map.entry("HttpOptions.requestTimeout", "--timeout"),
            Map.entry("HttpOptions.idleTimeout", "--timeout"),
            Map.entry("SftpOptions.readTimeout", "--timeout"),
            Map.entry("S3Options.requestTimeout", "--timeout"),
            Map.entry("AzureOptions.requestTimeout", "--timeout"),
            Map.entry("AzureOptions.flatListings", "--az-per-directory-listing"),
            Map.entry("AzureOptions.blockSize", "--az-block-size"),
            Map.entry("S3Options.partSize", "--s3-part-size"),
            Map.entry("AzureOptions.credentials", "AZURE_STORAGE_CONNECTION_STRING, or AZURE_STORAGE_ACCOUNT with "
                    + "AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN"),
            Map.entry("SftpOptions.hostKeyPolicy(ACCEPT_NEW)", "--accept-new-host-keys"),
            Map.entry("SftpOptions.password", Paths.SFTP_PASSWORD_ENV + " or the prompt at a terminal"),
            Map.entry("SftpOptions.keyPassphrase", Paths.SSH_PASSPHRASE_ENV + " or the prompt at a terminal"),
            Map.entry("SftpOptions.identityFiles", "--identity"),
            Map.entry("S3Options.flatListings", "--s3-per-directory-listing"),
            Map.entry("WebDavOptions.flatListings", "--webdav-per-directory-listing"),
            Map.entry("WebDavOptions.requestTimeout", "--timeout"),
            Map.entry("WebDavOptions.idleTimeout", "--timeout"),
            Map.entry("WebDavOptions.listingTimeout", "--webdav-listing-timeout"),
            Map.entry("WebDavOptions.maxListingBytes", "--webdav-max-listing-bytes"),
            Map.entry("FtpOptions.readTimeout", "--timeout"),
            Map.entry("FtpOptions.password", FtpCredentials.PASSWORD_ENV + " or the prompt at a terminal"),
            Map.entry("S3Options.credentials", "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE"),
            Map.entry("PathSyncer.Builder.allowEmptySource", "--allow-empty-source"),
            Map.entry("-Dremotepath.maxDepth", "RPATH_JAVA_OPTS=-Dremotepath.maxDepth=N"),
            Map.entry("-Dremotepath.maxPathLength", "RPATH_JAVA_OPTS=-Dremotepath.maxPathLength=N"),
            Map.entry("-Dremotepath.maxListingEntries", "RPATH_JAVA_OPTS=-Dremotepath.maxListingEntries=N"),
            Map.entry("-Dremotepath.minimumBodyRate", "RPATH_JAVA_OPTS=-Dremotepath.minimumBodyRate=BYTES_PER_SECOND"),
            Map.entry("-Dremotepath.minimumListingRate", "RPATH_JAVA_OPTS=-Dremotepath.minimumListingRate=ENTRIES_PER_SECOND"),
            Map.entry("-Dremotepath.listingRateWindow", "RPATH_JAVA_OPTS=-Dremotepath.listingRateWindow=SECONDS"));

    /** A reference to a library option as the library's messages write one. */
    static final Pattern REFERENCE = Pattern.compile(
            "-Dremotepath\\.[A-Za-z]+|\\b(?:Http|Sftp|S3|Azure|WebDav|Ftp)Options\\.[a-z][A-Za-z]*(?:\\([A-Z_]+\\))?"
                    + "|\\bPathSyncer\\.Builder\\.[a-z][A-Za-z]*");

    private static final Pattern REPEATED_FLAG = Pattern.compile("(--[a-z][a-z-]*)(?:, \\1)+(?![a-z-])");

    private Hints() {
    }

    /** {@code message} with each library option it names replaced by the CLI's way to set it. */
    static String forCli(String message) {
        if (message.indexOf('.') < 0) {
            return message;
        }
        Matcher m = REFERENCE.matcher(message);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(CLI.getOrDefault(m.group(), m.group())));
        }
        m.appendTail(sb);
        // Two options one flag sets, named side by side ("--timeout, --timeout"), read as one.
        return REPEATED_FLAG.matcher(sb).replaceAll("$1");
    }
}
