package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.http.index.IndexDates;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which date texts say their zone: the others are calibrated against Last-Modified (ZoneCalibration). */
class IndexDatesZoneTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Thu, 29 Feb 2024 13:37:42 GMT|true|2024-02-29T13:37:42Z",
        "2024-02-29T13:37:42Z|true|2024-02-29T13:37:42Z",
        "2024-02-29T19:07:42+05:30|true|2024-02-29T13:37:42Z",
        "2024-02-29 13:37 UTC|true|2024-02-29T13:37:00Z",
        "2024-02-29 13:37|false|2024-02-29T13:37:00Z",
        "29-Feb-2024 13:37|false|2024-02-29T13:37:00Z",
        "Feb 29, 2024, 1:37:42 PM|false|2024-02-29T13:37:42Z",
        "2024-02-29 13:37 Utopia|false|2024-02-29T13:37:00Z"})
    void aDateSaysItsZoneOnlyWhenItSaysIt(String text, boolean stated, String instant) {
        IndexDates.Found f = IndexDates.parse(text);
        assertThat(f).isNotNull();
        assertThat(f.zoneStated()).as(text).isEqualTo(stated);
        assertThat(f.instant()).isEqualTo(Instant.parse(instant));
    }
}
