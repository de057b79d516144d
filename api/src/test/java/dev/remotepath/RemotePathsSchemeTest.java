package dev.remotepath;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What {@link RemotePaths#get(String)} reads as a URI and what as a local path: the hand-written
 * scheme test answers as the pattern it replaced, {@code ^[A-Za-z][A-Za-z0-9+.-]+:}.
 */
class RemotePathsSchemeTest {

    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:");

    @Test
    void schemesAndPathsAreToldApart() {
        assertThat(RemotePaths.startsWithScheme("sftp://host/dir")).isTrue();
        assertThat(RemotePaths.startsWithScheme("zip:s3://b/x.zip!/")).isTrue();
        assertThat(RemotePaths.startsWithScheme("svn+ssh://h/")).isTrue();
        assertThat(RemotePaths.startsWithScheme("ab:")).isTrue();
        assertThat(RemotePaths.startsWithScheme("C:\\data")).isFalse(); // a drive letter, not a scheme
        assertThat(RemotePaths.startsWithScheme("/tmp/a:b")).isFalse();
        assertThat(RemotePaths.startsWithScheme("docs/a:b")).isFalse();
        assertThat(RemotePaths.startsWithScheme("1ab:x")).isFalse();
        assertThat(RemotePaths.startsWithScheme("")).isFalse();
        assertThat(RemotePaths.startsWithScheme("dir")).isFalse();
        assertThat(RemotePaths.startsWithScheme("é:x")).isFalse();
    }

    @Test
    void answersAsThePatternOnRandomStrings() {
        Random random = new Random(42);
        String alphabet = "aZ09+.-:/\\_ é\u0000";
        for (int i = 0; i < 50_000; i++) {
            StringBuilder s = new StringBuilder();
            for (int n = random.nextInt(7); n > 0; n--) {
                s.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String text = s.toString();
            assertThat(RemotePaths.startsWithScheme(text)).as(text).isEqualTo(SCHEME.matcher(text).find());
        }
    }
}
