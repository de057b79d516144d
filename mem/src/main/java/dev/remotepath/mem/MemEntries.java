package dev.remotepath.mem;

import java.util.Arrays;

/**
 * A directory's entries: an open-addressing table of names and nodes in two arrays (linear
 * probing, at most half full). Not a {@code HashMap}: that holds an entry object per name, one
 * more object in another place of the heap for every entry a listing or a lookup touches, and
 * in a volume of millions of files those misses are what a walk costs. Guarded by the volume's
 * lock.
 */
final class MemEntries {

    private static final String[] NO_NAMES = {};
    private static final MemNode[] NO_NODES = {};

    private String[] names = NO_NAMES;
    private MemNode[] nodes = NO_NODES;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The slots, for a listing: {@link #nameAt} is null where a slot is free. */
    int slots() {
        return names.length;
    }

    String nameAt(int slot) {
        return names[slot];
    }

    MemNode nodeAt(int slot) {
        return nodes[slot];
    }

    MemNode get(String name) {
        if (size == 0) {
            return null;
        }
        int mask = names.length - 1;
        for (int i = mix(name.hashCode()) & mask; ; i = (i + 1) & mask) {
            String n = names[i];
            if (n == null) {
                return null;
            }
            if (n.equals(name)) {
                return nodes[i];
            }
        }
    }

    /** Adds or replaces the entry {@code name}. */
    void put(String name, MemNode node) {
        if (2 * (size + 1) > names.length) {
            grow();
        }
        int mask = names.length - 1;
        int i = mix(name.hashCode()) & mask;
        for (; names[i] != null; i = (i + 1) & mask) {
            if (names[i].equals(name)) {
                nodes[i] = node;
                return;
            }
        }
        names[i] = name;
        nodes[i] = node;
        size++;
    }

    /** Removes the entry {@code name}; returns its node, or null when there was none. */
    MemNode remove(String name) {
        if (size == 0) {
            return null;
        }
        int mask = names.length - 1;
        int i = mix(name.hashCode()) & mask;
        for (; ; i = (i + 1) & mask) {
            if (names[i] == null) {
                return null;
            }
            if (names[i].equals(name)) {
                break;
            }
        }
        MemNode gone = nodes[i];
        // Backward-shift deletion, so no tombstones are needed: every later entry of the run
        // whose home slot is not between the hole and itself moves up into the hole.
        int hole = i;
        for (int j = (i + 1) & mask; names[j] != null; j = (j + 1) & mask) {
            int home = mix(names[j].hashCode()) & mask;
            boolean staysPut = hole < j ? home > hole && home <= j : home > hole || home <= j;
            if (!staysPut) {
                names[hole] = names[j];
                nodes[hole] = nodes[j];
                hole = j;
            }
        }
        names[hole] = null;
        nodes[hole] = null;
        size--;
        return gone;
    }

    void clear() {
        names = NO_NAMES;
        nodes = NO_NODES;
        size = 0;
    }

    private void grow() {
        String[] oldNames = names;
        MemNode[] oldNodes = nodes;
        int capacity = Math.max(8, oldNames.length * 2);
        names = new String[capacity];
        nodes = new MemNode[capacity];
        int mask = capacity - 1;
        for (int s = 0; s < oldNames.length; s++) {
            if (oldNames[s] != null) {
                int i = mix(oldNames[s].hashCode()) & mask;
                while (names[i] != null) {
                    i = (i + 1) & mask;
                }
                names[i] = oldNames[s];
                nodes[i] = oldNodes[s];
            }
        }
    }

    /** Spreads a name's hash: names that differ only at the end ("f1", "f2") must not cluster. */
    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    @Override
    public String toString() {
        return "MemEntries[" + size + " of " + Arrays.stream(names).filter(n -> n != null).toList() + "]";
    }
}
