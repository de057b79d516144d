package dev.remotepath.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class WireTimesTest {

    /** What servers send (RFC 9110's IMF-fixdate: a two-digit day), where the JDK's RFC 1123 formatter writes "1 May". */
    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.ofPattern("EEE, dd MMM uuuu HH:mm:ss 'GMT'", Locale.US);
    private static final long MIN = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long MAX = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

    @Test
    void theFormsServersSendAreReadAsTheFormatterReadsThem() {
        assertThat(WireTimes.rfc1123("Sat, 05 Dec 2026 03:12:26 GMT")).isEqualTo(Instant.parse("2026-12-05T03:12:26Z"));
        assertThat(WireTimes.isoInstant("2026-12-05T03:12:26.125761264Z")).isEqualTo(Instant.parse("2026-12-05T03:12:26.125761264Z"));
        assertThat(WireTimes.isoInstant("2026-12-05T03:12:26.1Z")).isEqualTo(Instant.parse("2026-12-05T03:12:26.100Z"));
        assertThat(WireTimes.isoOffsetDateTime("2026-12-05T04:12:26.000000001+01:00"))
                .isEqualTo(Instant.parse("2026-12-05T03:12:26.000000001Z"));
        Random random = new Random(23);
        for (int i = 0; i < 20_000; i++) {
            Instant t = Instant.ofEpochSecond(MIN + (long) (random.nextDouble() * (MAX - MIN)), random.nextInt(1_000_000_000));
            String http = IMF_FIXDATE.format(t.atOffset(ZoneOffset.UTC));
            assertThat(WireTimes.imfFixdate(http)).as("read without the formatter: " + http).isEqualTo(slowRfc1123(http));
            String iso = t.toString();
            assertThat(WireTimes.plainIsoInstant(iso)).as("read without the formatter: " + iso).isEqualTo(Instant.parse(iso));
            assertThat(WireTimes.isoOffsetDateTime(iso)).as(iso).isEqualTo(slowIsoOffsetDateTime(iso));
        }
    }

    /** Every variant of a valid time a server might garble: the answer (or refusal) is the formatter's. */
    @Test
    void anythingElseIsAnsweredOrRefusedAsTheFormatterWould() {
        List<String> http = variants("Sat, 05 Dec 2026 03:12:26 GMT", "Tue, 29 Feb 2028 23:59:59 GMT",
                "Thu, 01 Jan 1970 00:00:00 GMT");
        http.addAll(List.of("Sat, 5 Dec 2026 03:12:26 GMT", "sat, 05 dec 2026 03:12:26 gmt", "Fri, 05 Dec 2026 03:12:26 GMT",
                "Sat, 05 Dec 2026 03:12:26 +0000", "Sat, 05 Dec 2026 03:12:60 GMT", "Sat, 05 Dec 2026 24:00:00 GMT",
                "Sat, 31 Nov 2026 03:12:26 GMT", "Sat, 05 Xyz 2026 03:12:26 GMT", "Sat, 05 anF 2026 03:12:26 GMT",
                "05 Dec 2026 03:12:26 GMT", "Sat, 05 Dec 2026 03:12:26 UTC", ""));
        for (String s : http) {
            assertSame(s, WireTimes::rfc1123, WireTimesTest::slowRfc1123);
        }
        List<String> iso = variants("2026-12-05T03:12:26.125761264Z", "2028-02-29T23:59:59Z", "0000-01-01T00:00:00.5Z");
        iso.addAll(List.of("2026-12-05t03:12:26z", "2026-12-05T03:12:26.Z", "2026-12-05T03:12:26.1234567890Z",
                "2026-12-05T23:59:60Z", "2026-02-30T00:00:00Z", "2026-12-05T03:12:26+01:00", "+2026-12-05T03:12:26Z",
                "2026-12-05T03:12Z", "2026-12-05T24:00:00Z", "2026-13-05T03:12:26Z", "-001-12-05T03:12:26Z"));
        for (String s : iso) {
            assertSame(s, WireTimes::isoInstant, Instant::parse);
            assertSame(s, WireTimes::isoOffsetDateTime, WireTimesTest::slowIsoOffsetDateTime);
        }
    }

    private static Instant slowIsoOffsetDateTime(String s) {
        return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    }

    private static Instant slowRfc1123(String s) {
        return ZonedDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    }

    private static void assertSame(String s, Function<String, Instant> fast, Function<String, Instant> slow) {
        Object expected;
        try {
            expected = slow.apply(s);
        } catch (DateTimeParseException e) {
            expected = DateTimeParseException.class;
        }
        Object actual;
        try {
            actual = fast.apply(s);
        } catch (DateTimeParseException e) {
            actual = DateTimeParseException.class;
        }
        assertThat(actual).as("'%s'", s).isEqualTo(expected);
    }

    /** Each valid text with each character replaced by a few others, dropped and doubled. */
    private static List<String> variants(String... valid) {
        List<String> out = new ArrayList<>();
        String replacements = "019:-.,TZ aG+";
        for (String v : valid) {
            out.add(v);
            for (int i = 0; i < v.length(); i++) {
                for (char c : replacements.toCharArray()) {
                    out.add(v.substring(0, i) + c + v.substring(i + 1));
                }
                out.add(v.substring(0, i) + v.substring(i + 1));
                out.add(v.substring(0, i + 1) + v.charAt(i) + v.substring(i + 1));
            }
        }
        return out;
    }
}
