package dev.remotepath.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * What {@code rpath --version} prints after its own version: the JDK and the client libraries
 * the backends speak through, read from the metadata their jars carry (a bug report needs them).
 */
final class Versions {

    private Versions() {
    }

    /** One library: its name as people know it, and where its jar states its version. */
    private record Library(String name, String resource, String key) {
    }

    private static final List<Library> LIBRARIES = List.of(
            new Library("Apache MINA SSHD", "META-INF/maven/org.apache.sshd/sshd-osgi/pom.properties", "version"),
            new Library("sshj", "sshj.properties", "sshj.version"),
            new Library("AWS SDK for Java", "META-INF/maven/software.amazon.awssdk/s3/pom.properties", "version"),
            new Library("Jetty client", "META-INF/maven/org.eclipse.jetty/jetty-client/pom.properties", "version"));

    static List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add("Java " + Runtime.version() + " (" + System.getProperty("java.vendor", "unknown vendor") + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ")");
        ClassLoader loader = Versions.class.getClassLoader();
        for (Library l : LIBRARIES) {
            out.add(l.name() + " " + versionOf(loader, l));
        }
        return out;
    }

    private static String versionOf(ClassLoader loader, Library l) {
        try (InputStream in = loader.getResourceAsStream(l.resource())) {
            if (in == null) {
                return "(not on the class path)";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty(l.key(), "(version not stated)").strip();
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
