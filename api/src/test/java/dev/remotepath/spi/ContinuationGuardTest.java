package dev.remotepath.spi;

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
}
