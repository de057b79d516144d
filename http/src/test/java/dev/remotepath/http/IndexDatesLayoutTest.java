package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.http.index.IndexDates;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The two common date layouts are read at fixed offsets; the general reader must agree with
 * that fast path on everything. A second space between date and time sends the same text down
 * the general path, so each generated text is read both ways and compared.
 */
class IndexDatesLayoutTest {

    private static final String[] MONTHS = {"Jan", "feb", "MAR", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
        "Dec", "Foo", "Ja1"};

    @Test
    void fastAndGeneralReadersAgree() {
        Random r = new Random(20261130);
        int parsed = 0;
        for (int n = 0; n < 20_000; n++) {
            int year = r.nextInt(10) == 0 ? r.nextInt(10_000) : 1990 + r.nextInt(60);
            int month = r.nextInt(10) == 0 ? r.nextInt(14) : 1 + r.nextInt(12);
            int day = r.nextInt(10) == 0 ? r.nextInt(40) : 1 + r.nextInt(28);
            int hour = r.nextInt(10) == 0 ? 20 + r.nextInt(10) : r.nextInt(24);
            int minute = r.nextInt(10) == 0 ? 55 + r.nextInt(10) : r.nextInt(60);
            String date = r.nextBoolean()
                    ? String.format("%02d-%s-%04d", day % 100, MONTHS[Math.max(0, month - 1) % MONTHS.length], year)
                    : String.format("%04d-%02d-%02d", year, month, day % 100);
            String time = String.format("%02d:%02d", hour, minute);
            switch (r.nextInt(6)) {
                case 0 -> time += String.format(":%02d", r.nextInt(62));
                case 1 -> time += "." + r.nextInt(1000);
                case 2 -> time += String.format(":%02d.%03d", r.nextInt(60), r.nextInt(1000));
                case 3 -> time += r.nextInt(10); // a third minute digit
                case 4 -> time += String.format(":%d", r.nextInt(10)); // one-digit seconds
                default -> { }
            }
            String tail = switch (r.nextInt(4)) {
                case 0 -> "";
                case 1 -> "   12.3K";
                case 2 -> "<";
                default -> "  -";
            };
            IndexDates.Found fast = IndexDates.parse(date + " " + time + tail);
            IndexDates.Found general = IndexDates.parse(date + "  " + time + tail);
            String what = date + " " + time + tail;
            if (general == null) {
                assertThat(fast).as(what).isNull();
                continue;
            }
            parsed++;
            assertThat(fast).as(what).isNotNull();
            assertThat(fast.instant()).as(what).isEqualTo(general.instant());
            assertThat(fast.precision()).as(what).isEqualTo(general.precision());
            assertThat(fast.end()).as(what).isEqualTo(general.end() - 1);
        }
        assertThat(parsed).as("enough valid dates among the generated ones").isGreaterThan(10_000);
    }

    @Test
    void theCommonLayoutsReadAsExpected() {
        assertThat(IndexDates.parse("29-Feb-2024 13:37").instant()).isEqualTo(Instant.parse("2024-02-29T13:37:00Z"));
        assertThat(IndexDates.parse("29-Feb-2024 13:37").precision()).isEqualTo(Duration.ofMinutes(1));
        assertThat(IndexDates.parse("2024-02-29 13:37:42").instant()).isEqualTo(Instant.parse("2024-02-29T13:37:42Z"));
        assertThat(IndexDates.parse("2024-02-29 13:37:42").precision()).isEqualTo(Duration.ofSeconds(1));
        assertThat(IndexDates.parse("31-Dec-1999 23:59:60").instant()).isEqualTo(Instant.parse("1999-12-31T23:59:59Z"));
        assertThat(IndexDates.parse("2024-13-01 10:00")).isNull();
        assertThat(IndexDates.parse("30-Foo-2024 10:00")).isNull();
    }
}
