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

    /** A clock the test moves. */
    private static final class Clock implements java.util.function.LongSupplier {
        long now = 1_000_000_000_000L;

        void pass(long seconds) {
            now += seconds * 1_000_000_000L;
        }

        @Override
        public long getAsLong() {
            return now;
        }
    }

    @Test
    void pagesThatTrickleFailOnceTheWindowHasPassed() throws IOException {
        Clock clock = new Clock();
        ContinuationGuard guard = new ContinuationGuard("s3://b/slow", clock);
        int page = 0;
        // A name every 29 s, each page within any read timeout: fine for five minutes...
        for (; page < 10; page++) {
            clock.pass(29);
            guard.page(1, "t" + page);
        }
        clock.pass(29);
        int last = page;
        // ...then judged: 11 names in 319 s is fewer than one a second.
        assertThatThrownBy(() -> guard.page(1, "t" + last)).isInstanceOf(IOException.class)
                .hasMessageContaining("s3://b/slow").hasMessageContaining("11 entries in 319 s")
                .hasMessageContaining("-Dremotepath.minimumListingRate");
        ContinuationGuard sftp = new ContinuationGuard("sftp://h/slow", clock);
        clock.pass(400);
        assertThatThrownBy(() -> sftp.pageWithoutToken(3)).isInstanceOf(IOException.class)
                .hasMessageContaining("trickles");
    }

    @Test
    void aListingThatKeepsThePaceOrEndsIsNeverCutOff() throws IOException {
        Clock clock = new Clock();
        ContinuationGuard steady = new ContinuationGuard("s3://b/big", clock);
        for (int i = 0; i < 600; i++) { // an hour at 1,000 names a page, a page every 6 s
            clock.pass(6);
            steady.page(1000, "t" + i);
        }
        ContinuationGuard ending = new ContinuationGuard("az://c/dir", clock);
        clock.pass(3600);
        ending.page(2, null); // slow, but it ended: nothing is left to wait for
    }

    @Test
    void aLazyReadersTimeBetweenPagesIsNotTheServers() throws IOException {
        Clock clock = new Clock();
        ContinuationGuard guard = new ContinuationGuard("s3://b/lazy", clock);
        for (int i = 0; i < 100; i++) {
            guard.asking();
            clock.pass(1); // the store answers in a second
            guard.page(10, "t" + i);
            clock.pass(60); // the reader copies what it was given before it asks for more
        }
        // 100 s of waiting for 1,000 names: within the window, whatever the reader took.
        guard.asking();
        clock.pass(1000); // the store slows to a crawl: 1,000 names in 1,100 s of waiting
        assertThatThrownBy(() -> guard.page(0, "late")).isInstanceOf(IOException.class)
                .hasMessageContaining("1000 entries in 1100 s of waiting");
    }

    @Test
    void thePaceAndItsWindowAreReadWhenAListingStarts() throws IOException {
        System.setProperty("remotepath.minimumListingRate", "0");
        try {
            Clock clock = new Clock();
            ContinuationGuard off = new ContinuationGuard("s3://b/x", clock);
            clock.pass(10_000);
            off.page(1, "t");
        } finally {
            System.clearProperty("remotepath.minimumListingRate");
        }
        System.setProperty("remotepath.listingRateWindow", "2");
        try {
            Clock clock = new Clock();
            ContinuationGuard shortWindow = new ContinuationGuard("s3://b/x", clock);
            clock.pass(3);
            assertThatThrownBy(() -> shortWindow.page(1, "t")).isInstanceOf(IOException.class);
        } finally {
            System.clearProperty("remotepath.listingRateWindow");
        }
        assertThat(ContinuationGuard.rateWindow()).isEqualTo(ContinuationGuard.DEFAULT_RATE_WINDOW);
    }
}
