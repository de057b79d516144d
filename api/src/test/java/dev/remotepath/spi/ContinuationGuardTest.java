package dev.remotepath.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A paged listing that would never end fails instead. */
class ContinuationGuardTest {

    @Test
    void aTokenHandedBackTwiceFails() throws IOException {
        ContinuationGuard guard = new ContinuationGuard("s3://b/dir");
        guard.page(1000, "t1");
        guard.page(1000, "t2");
        guard.page(3, null); // the end: nothing to check
        assertThatThrownBy(() -> guard.page(1000, "t1")).isInstanceOf(IOException.class)
                .hasMessageContaining("s3://b/dir").hasMessageContaining("gave before");
    }

    @Test
    void endlessEmptyPagesFailButAFewAreAccepted() throws IOException {
        ContinuationGuard guard = new ContinuationGuard("az://c/dir");
        for (int i = 0; i < ContinuationGuard.MAX_EMPTY_PAGES; i++) {
            guard.page(0, "e" + i);
        }
        guard.page(5, "full"); // a page with entries starts the count again
        for (int i = 0; i < ContinuationGuard.MAX_EMPTY_PAGES; i++) {
            guard.page(0, "f" + i);
        }
        assertThatThrownBy(() -> guard.page(0, "one-too-many")).isInstanceOf(IOException.class)
                .hasMessageContaining("az://c/dir").hasMessageContaining("empty pages");
    }

    @Test
    void endlessEmptyPagesWithoutTokensFailButAFewAreAccepted() throws IOException {
        ContinuationGuard guard = new ContinuationGuard("sftp://h/dir");
        for (int i = 0; i < ContinuationGuard.MAX_EMPTY_PAGES; i++) {
            guard.pageWithoutToken(0);
        }
        guard.pageWithoutToken(100); // a page with entries starts the count again
        for (int i = 0; i < ContinuationGuard.MAX_EMPTY_PAGES; i++) {
            guard.pageWithoutToken(0);
        }
        assertThatThrownBy(() -> guard.pageWithoutToken(0)).isInstanceOf(IOException.class)
                .hasMessageContaining("sftp://h/dir").hasMessageContaining("empty pages in a row, none the end");
    }

    @Test
    void aListingOfEndlessNewNamesFailsPastTheEntryBound() throws IOException {
        // new tokens, new names, no empty page: only a count of what was listed sees no end
        ContinuationGuard guard = new ContinuationGuard("s3://b/flat");
        int pages = ContinuationGuard.DEFAULT_MAX_ENTRIES / 1000;
        for (int i = 0; i < pages; i++) {
            guard.page(1000, "t" + i);
        }
        assertThatThrownBy(() -> guard.page(1, "over")).isInstanceOf(IOException.class)
                .hasMessageContaining("s3://b/flat").hasMessageContaining("more than 1,000,000 entries")
                .hasMessageContaining("-Dremotepath.maxListingEntries");
        ContinuationGuard sftp = new ContinuationGuard("sftp://h/dir");
        for (int i = 0; i < pages; i++) {
            sftp.pageWithoutToken(1000);
        }
        assertThatThrownBy(() -> sftp.pageWithoutToken(1)).isInstanceOf(IOException.class)
                .hasMessageContaining("more than 1,000,000 entries");
    }

    @Test
    void theEntryBoundIsReadWhenAListingStarts() throws IOException {
        String before = System.getProperty("remotepath.maxListingEntries");
        System.setProperty("remotepath.maxListingEntries", "2500");
        try {
            ContinuationGuard guard = new ContinuationGuard("az://c/dir");
            guard.page(1000, "a");
            guard.page(1000, "b");
            guard.page(500, null); // exactly the bound: a listing that ended there is whole
            ContinuationGuard next = new ContinuationGuard("az://c/dir");
            next.page(2500, "a");
            assertThatThrownBy(() -> next.page(1, null)).isInstanceOf(IOException.class)
                    .hasMessageContaining("more than 2,500 entries");
            System.setProperty("remotepath.maxListingEntries", "0"); // nonsense: the default
            assertThat(ContinuationGuard.maxEntries()).isEqualTo(ContinuationGuard.DEFAULT_MAX_ENTRIES);
        } finally {
            if (before == null) {
                System.clearProperty("remotepath.maxListingEntries");
            } else {
                System.setProperty("remotepath.maxListingEntries", before);
            }
        }
    }
}
