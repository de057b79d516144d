package dev.remotepath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

class PosixModesTest {

    @Test
    void everyModeRoundTripsAndReadsAsLsShowsIt() {
        for (int mode = 0; mode < 512; mode++) {
            assertThat(PosixModes.mode(PosixModes.permissions(mode))).isEqualTo(mode);
            assertThat(PosixFilePermissions.toString(PosixModes.permissions(mode)))
                    .isEqualTo(PosixFilePermissions.toString(PosixFilePermissions.fromString(ls(mode))));
        }
        assertThat(PosixModes.permissions(0100750)).isEqualTo(PosixFilePermissions.fromString("rwxr-x---"));
        assertThat(PosixModes.permissions(04755)).as("setuid and type bits ignored").isEqualTo(PosixModes.permissions(0755));
        assertThat(PosixModes.permissions(0644)).isSameAs(PosixModes.permissions(0644));
        assertThatThrownBy(() -> PosixModes.permissions(0644).clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    private static String ls(int mode) {
        StringBuilder sb = new StringBuilder();
        String rwx = "rwx";
        for (int bit = 8; bit >= 0; bit--) {
            sb.append((mode & (1 << bit)) != 0 ? rwx.charAt((8 - bit) % 3) : '-');
        }
        return sb.toString();
    }
}
