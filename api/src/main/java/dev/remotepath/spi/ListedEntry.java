package dev.remotepath.spi;

import dev.remotepath.FileStat;
import java.util.Objects;

/**
 * An entry as a backend's listing returns it: a raw name and the metadata the listing carried.
 * The api validates the name (no {@code /}, NUL, {@code .}, {@code ..} or empty name) before it
 * becomes a path, so a backend need not trust its server.
 */
public record ListedEntry(String name, FileStat stat) {
    public ListedEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(stat, "stat");
    }
}
