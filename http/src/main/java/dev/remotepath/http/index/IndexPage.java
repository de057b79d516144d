package dev.remotepath.http.index;

import dev.remotepath.spi.ListedEntry;
import java.util.List;

/**
 * A parsed directory index: the format recognized and the entries, with the metadata the page
 * showed (exact or approximate sizes, dates with their precision).
 *
 * <p>{@code directoriesUnmarked}: the page links directories without a trailing slash, as it
 * links itself and its parent ({@code "."}, {@code ".."}: mini_httpd), so an entry it shows as a
 * file may be a directory; the backend asks the server about each.
 *
 * <p>{@code timesInUnstatedZone}: the page's dates say no zone, so they were read as UTC though
 * the server may show its local time; the backend calibrates them (HTTP's own dates are UTC).
 */
public record IndexPage(Format format, List<ListedEntry> entries, boolean directoriesUnmarked,
        boolean timesInUnstatedZone) {

    /** How the listing was read. */
    public enum Format {
        /** Any HTML index: Apache, nginx, lighttpd, Python, Jetty, Caddy, IIS, or links only. */
        HTML,
        /** nginx {@code autoindex_format json}. */
        NGINX_JSON,
        /** nginx {@code autoindex_format xml}. */
        NGINX_XML,
        /** Caddy's file_server browse answering {@code Accept: application/json}. */
        CADDY_JSON
    }

    public IndexPage {
        entries = List.copyOf(entries);
    }

    /** A page whose links mark directories with a trailing slash, as nearly every server's do. */
    public IndexPage(Format format, List<ListedEntry> entries) {
        this(format, entries, false, false);
    }
}
