package dev.remotepath.syncer;

/** How {@link PathSyncer} decides that a target file already equals its source. */
public enum Comparison {
    /**
     * Equal size and modification times within the coarser precision of the two sides. When
     * only the times differ and both sides have a cheap checksum in common (native or from
     * metadata), the checksums decide, and equal content only has its target mtime fixed.
     * A target whose listing gives only the time its content was stored (S3) is equal when the
     * sizes match and it was stored after the source's mtime (plus precision and one second);
     * otherwise its mtime is fetched with one stat and compared as above.
     */
    QUICK_CHECK,
    /** Equal size and equal checksum: native on both sides when they share an algorithm, else streamed. */
    CHECKSUM,
    /** Equal size. */
    SIZE_ONLY,
    /** Never equal: every file is copied. */
    ALWAYS_COPY
}
