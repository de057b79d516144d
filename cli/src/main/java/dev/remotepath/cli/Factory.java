package dev.remotepath.cli;

import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import picocli.CommandLine;

/**
 * Creates commands and option collections for picocli, by their no-argument constructors and
 * with plain JDK collections: nothing reflective beyond that, so a command's start-up loads
 * only what it uses.
 */
final class Factory implements CommandLine.IFactory {

    @Override
    @SuppressWarnings("unchecked")
    public <K> K create(Class<K> cls) throws Exception {
        if (cls.isInterface()) {
            Object made;
            if (SortedSet.class.isAssignableFrom(cls)) {
                made = new TreeSet<>();
            } else if (Set.class.isAssignableFrom(cls)) {
                made = new LinkedHashSet<>();
            } else if (List.class.isAssignableFrom(cls) || Collection.class.equals(cls)) {
                made = new ArrayList<>();
            } else if (SortedMap.class.isAssignableFrom(cls)) {
                made = new TreeMap<>();
            } else if (Map.class.isAssignableFrom(cls)) {
                made = new LinkedHashMap<>();
            } else {
                throw new InstantiationException("cannot create an instance of interface " + cls.getName());
            }
            return (K) made;
        }
        Constructor<K> c = cls.getDeclaredConstructor();
        c.setAccessible(true);
        return c.newInstance();
    }
}
