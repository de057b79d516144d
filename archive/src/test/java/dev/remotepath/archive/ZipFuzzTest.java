package dev.remotepath.archive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.DirEntry;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Archives with random bytes changed, cut short or overwritten by large counts: opening,
 * walking and reading each must end in a result or an {@link IOException}, never another
 * exception (an index out of bounds, a negative array size, an out-of-range time) or a hang.
 */
class ZipFuzzTest {

    private static byte[] sample() {
        ZipWriter w = new ZipWriter();
        w.dir("d/");
        w.file("d/a.txt", "alpha").mtime(1_700_000_000L);
        w.add("d/b.bin").content(new byte[3000]).deflated();
        w.link("d/link", "a.txt");
        w.file("top.txt", "top");
        return w.bytes();
    }

    @Test
    void mutatedArchivesFailOnlyWithIOExceptions() throws Exception {
        byte[] good = sample();
        RemotePath vol = RemotePaths.get("mem://zip-fuzz-" + UUID.randomUUID() + "/");
        Random random = new Random(20261203);
        int opened = 0;
        List<String> surprises = new ArrayList<>();
        for (int round = 0; round < 3000; round++) {
            byte[] bad = good.clone();
            switch (round % 4) {
                case 0 -> { // a few random bytes
                    for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
                        bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
                    }
                }
                case 1 -> { // a field set to all ones: the largest size, count or offset
                    int at = random.nextInt(bad.length - 4);
                    for (int i = 0; i < 4; i++) {
                        bad[at + i] = (byte) 0xff;
                    }
                }
                case 2 -> bad = java.util.Arrays.copyOf(bad, random.nextInt(bad.length)); // cut short
                default -> { // a 0x80000000 (negative as an int) somewhere
                    int at = random.nextInt(bad.length - 4);
                    bad[at] = 0;
                    bad[at + 1] = 0;
                    bad[at + 2] = 0;
                    bad[at + 3] = (byte) 0x80;
                }
            }
            RemotePath archive = vol.resolve("r" + round + ".zip").write(bad);
            try {
                RemotePath root = RemotePaths.get("zip:" + archive + "!/");
                opened++;
                exercise(root);
            } catch (IOException expected) {
                // the archive, an entry or a name refused: fine
            } catch (RuntimeException e) {
                surprises.add("round " + round + ": " + e);
            }
        }
        assertThat(surprises).isEmpty();
        assertThat(opened).as("archives whose directory still read").isGreaterThan(100);
    }

    private static void exercise(RemotePath dir) throws IOException {
        for (DirEntry e : dir.list()) {
            try {
                if (e.type() == FileType.DIRECTORY) {
                    exercise(e.path());
                } else {
                    e.path().stat();
                    try (InputStream in = e.path().newInputStream()) {
                        in.transferTo(java.io.OutputStream.nullOutputStream());
                    }
                    try (InputStream in = e.path().newInputStream(7)) {
                        in.transferTo(java.io.OutputStream.nullOutputStream());
                    }
                }
            } catch (IOException refused) {
                // this entry refused; the others are still tried
            }
        }
    }
}
