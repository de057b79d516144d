package dev.remotepath.mem;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The directory table agrees with a {@code HashMap} through any mix of puts and removes. */
class MemEntriesTest {

    @Test
    void agreesWithAHashMapThroughRandomChanges() {
        Random random = new Random(42);
        for (int round = 0; round < 50; round++) {
            MemEntries table = new MemEntries();
            Map<String, MemNode> expected = new HashMap<>();
            int names = 1 + random.nextInt(300);
            for (int op = 0; op < 5_000; op++) {
                String name = "f" + random.nextInt(names);
                if (random.nextInt(3) == 0) {
                    assertThat(table.remove(name)).isSameAs(expected.remove(name));
                } else {
                    MemNode node = new MemNode.File(op, Instant.EPOCH);
                    table.put(name, node);
                    expected.put(name, node);
                }
                assertThat(table.size()).isEqualTo(expected.size());
            }
            for (int i = 0; i < names; i++) {
                assertThat(table.get("f" + i)).isSameAs(expected.get("f" + i));
            }
            Map<String, MemNode> listed = new HashMap<>();
            for (int slot = 0; slot < table.slots(); slot++) {
                if (table.nameAt(slot) != null) {
                    listed.put(table.nameAt(slot), table.nodeAt(slot));
                }
            }
            assertThat(listed).isEqualTo(expected);
        }
    }
}
