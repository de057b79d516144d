package dev.remotepath.archive;

import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.util.Locale;

/**
 * The text of archive URIs: {@code zip:<uri of the archive>!/path in the archive}, and the same
 * with {@code tar:}.
 *
 * <p>The archive's URI ends at the first {@code !} that is followed by {@code /} or ends the
 * text, counting one such separator per level of nesting ({@code zip:zip:file:///a.zip!/b.zip!/c}
 * is {@code c} in {@code b.zip}, itself in {@code a.zip}). A {@code !} inside the archive's own
 * URI that would read as a separator is written {@code %21}, which every backend decodes; the
 * URIs this module makes do that themselves. The path inside the archive is percent-encoded
 * as every RemotePath URI's path is.
 */
final class ArchiveUris {

    private ArchiveUris() {
    }

    /** A parsed archive URI: the archive's own URI text and the decoded path inside it. */
    record Parsed(String archiveUri, String path) {
    }

    static Parsed parse(URI uri) {
        if (uri.getRawFragment() != null) {
            throw new InvalidPathException(uri.toString(), "an archive path takes no fragment; percent-encode '#'");
        }
        String ssp = uri.getRawSchemeSpecificPart();
        int depth = 1;
        for (String rest = ssp; startsWithArchiveScheme(rest); rest = rest.substring(rest.indexOf(':') + 1)) {
            depth++;
        }
        int separator = -1;
        for (int found = 0, from = 0; found < depth; found++) {
            separator = nextSeparator(ssp, from);
            if (separator < 0) {
                throw new InvalidPathException(uri.toString(),
                        "an archive path is " + uri.getScheme() + ":<uri of the archive>!/path (no '!' after the archive's URI)");
            }
            from = separator + 1;
        }
        String archive = ssp.substring(0, separator);
        String inside = ssp.substring(separator + 1);
        if (archive.isEmpty()) {
            throw new InvalidPathException(uri.toString(), "no archive before '!'");
        }
        try {
            return new Parsed(archive, inside.isEmpty() ? "/" : UriPaths.decode(inside));
        } catch (IllegalArgumentException e) {
            throw new InvalidPathException(uri.toString(), e.getMessage());
        }
    }

    /** The URI prefix of the paths inside {@code archive}: {@code zip:<its URI>!}. */
    static String prefix(String scheme, RemotePath archive) {
        String own = archive.fileSystem().provider() instanceof ArchiveFileSystemProvider
                ? archive.fileSystem().uriPrefix() + UriPaths.encodePath(archive.pathString()).replace("!", "%21")
                : archive.toString().replace("!", "%21");
        return scheme + ":" + own + "!";
    }

    private static boolean startsWithArchiveScheme(String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        return lower.startsWith("zip:") || lower.startsWith("tar:");
    }

    /** The next '!' at or after {@code from} that is followed by '/' or ends the text. */
    private static int nextSeparator(String s, int from) {
        for (int i = s.indexOf('!', from); i >= 0; i = s.indexOf('!', i + 1)) {
            if (i + 1 == s.length() || s.charAt(i + 1) == '/') {
                return i;
            }
        }
        return -1;
    }
}
