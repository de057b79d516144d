package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The checked public API: every artifact's public surface (public and protected members of the
 * public types in its API packages) is dumped, as Okio keeps its {@code api/} files, and compared
 * with {@code <module>/api/remotepath-<module>.api} in the repository on every build. A change
 * to the surface fails here until the dump is written again
 * ({@code ./mvnw verify -pl cli -Dtest=PublicApiTest -Dremotepath.api.update=true}) and committed,
 * so an incompatible change is a deliberate, reviewed one. It lives in the CLI's tests because
 * the CLI is the one module that has every artifact on its test class path.
 */
class PublicApiTest {

    /** Each artifact's API packages; the others are internal (exported only to the project's modules, if at all). */
    static final Map<String, List<String>> API_PACKAGES = new TreeMap<>(Map.ofEntries(
            Map.entry("api", List.of("dev.remotepath", "dev.remotepath.spi")),
            Map.entry("testkit", List.of("dev.remotepath.testkit")),
            Map.entry("mem", List.of("dev.remotepath.mem")),
            Map.entry("local", List.of("dev.remotepath.local")),
            Map.entry("syncer", List.of("dev.remotepath.syncer", "dev.remotepath.syncer.scripting")),
            Map.entry("http", List.of("dev.remotepath.http")),
            Map.entry("sftp", List.of("dev.remotepath.sftp")),
            Map.entry("s3", List.of("dev.remotepath.s3")),
            Map.entry("azure", List.of("dev.remotepath.azure")),
            Map.entry("webdav", List.of("dev.remotepath.webdav")),
            Map.entry("ftp", List.of("dev.remotepath.ftp")),
            Map.entry("archive", List.of("dev.remotepath.archive")),
            Map.entry("micrometer", List.of("dev.remotepath.micrometer")),
            Map.entry("nio", List.of("dev.remotepath.nio")),
            Map.entry("cli", List.of("dev.remotepath.cli", "dev.remotepath.cli.scripting"))));

    /** Client libraries whose types must not appear in the public API (a version bump of theirs would break ours). */
    static final List<String> CLIENT_LIBRARIES = List.of("software.amazon.", "org.apache.sshd.", "net.schmizz.",
            "com.hierynomus.", "org.eclipse.jetty.", "com.azure.", "reactor.", "io.netty.", "org.apache.commons.net.");

    /**
     * Where a client library's type may still cross the API, each with its reason (docs/api.md):
     * none now; a member named here ({@code Type.member}, {@code Type.<init>}) is let through.
     */
    static final Set<String> CLIENT_TYPES_ALLOWED = Set.of();

    @Test
    void everyArtifactsPublicApiMatchesItsCheckedDump() throws Exception {
        Path root = DocsExamplesTest.repository();
        boolean update = Boolean.getBoolean("remotepath.api.update");
        List<String> changed = new ArrayList<>();
        for (var e : API_PACKAGES.entrySet()) {
            String dump = dump(e.getKey(), e.getValue());
            Path file = root.resolve(e.getKey()).resolve("api").resolve("remotepath-" + e.getKey() + ".api");
            String checked = Files.exists(file) ? Files.readString(file) : "";
            if (!dump.equals(checked)) {
                if (update) {
                    Files.createDirectories(file.getParent());
                    Files.writeString(file, dump);
                } else {
                    changed.add(root.relativize(file) + ":\n" + difference(checked, dump));
                }
            }
        }
        assertThat(changed).as("the public API changed; if that is meant, write the dumps again with "
                + "./mvnw verify -pl cli -Dtest=PublicApiTest -Dremotepath.api.update=true, and say so in docs/").isEmpty();
    }

    /** The module descriptors export to everyone exactly the packages whose API is dumped (docs/modules.md). */
    @Test
    void everyModuleExportsToEveryoneExactlyItsCheckedPackages() throws Exception {
        for (var e : API_PACKAGES.entrySet()) {
            java.lang.module.ModuleDescriptor d;
            try (var in = classFile(e.getKey(), "module-info.class")) {
                d = java.lang.module.ModuleDescriptor.read(in);
            }
            assertThat(d.exports().stream().filter(x -> !x.isQualified()).map(java.lang.module.ModuleDescriptor.Exports::source)
                    .sorted().toList()).as(d.name()).isEqualTo(e.getValue().stream().sorted().toList());
            assertThat(d.isOpen()).as(d.name()).isFalse();
        }
    }

    @Test
    void noClientLibraryTypeCrossesThePublicApi() throws Exception {
        List<String> leaks = new ArrayList<>();
        for (var e : API_PACKAGES.entrySet()) {
            for (Class<?> c : publicTypes(e.getKey(), e.getValue())) {
                for (Member m : members(c)) {
                    String signature = signature(m);
                    String name = c.getName() + "." + (m instanceof Constructor<?> ? "<init>" : m.getName());
                    if (CLIENT_LIBRARIES.stream().anyMatch(signature::contains) && !CLIENT_TYPES_ALLOWED.contains(name)) {
                        leaks.add(signature);
                    }
                }
                String header = header(c);
                if (CLIENT_LIBRARIES.stream().anyMatch(header::contains)) {
                    leaks.add(header);
                }
            }
        }
        assertThat(leaks).isEmpty();
    }

    /** The API of one artifact as text: a type per paragraph, sorted, members sorted within it. */
    static String dump(String module, List<String> packages) throws Exception {
        StringBuilder out = new StringBuilder();
        for (Class<?> c : publicTypes(module, packages)) {
            out.append(header(c)).append('\n');
            List<String> lines = new ArrayList<>();
            for (Member m : members(c)) {
                lines.add("  " + signature(m));
            }
            lines.sort(null);
            lines.forEach(l -> out.append(l).append('\n'));
            out.append('\n');
        }
        return out.toString();
    }

    private static String header(Class<?> c) {
        StringBuilder h = new StringBuilder(c.toGenericString());
        Type superclass = c.getGenericSuperclass();
        if (superclass != null && superclass != Object.class && !c.isEnum() && !c.isRecord()) {
            h.append(" extends ").append(superclass.getTypeName());
        }
        Type[] interfaces = c.getGenericInterfaces();
        if (interfaces.length > 0) {
            h.append(c.isInterface() ? " extends " : " implements ");
            h.append(String.join(", ", Arrays.stream(interfaces).map(Type::getTypeName).toList()));
        }
        if (c.isSealed()) {
            h.append(" permits ").append(String.join(", ", Arrays.stream(c.getPermittedSubclasses()).map(Class::getName).toList()));
        }
        return h.toString();
    }

    /** The members a caller outside the package can use: public ones, and protected ones of a type that can be extended. */
    private static List<Member> members(Class<?> c) {
        boolean extensible = !Modifier.isFinal(c.getModifiers()) && !c.isSealed() && !c.isEnum() && !c.isRecord()
                && (c.isInterface() || Arrays.stream(c.getDeclaredConstructors()).anyMatch(k -> visible(k.getModifiers(), true)));
        List<Member> out = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (!f.isSynthetic() && visible(f.getModifiers(), extensible)) {
                out.add(f);
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (!k.isSynthetic() && visible(k.getModifiers(), extensible)) {
                out.add(k);
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (!m.isSynthetic() && !m.isBridge() && visible(m.getModifiers(), extensible)) {
                out.add(m);
            }
        }
        return out;
    }

    private static boolean visible(int modifiers, boolean protectedCounts) {
        return Modifier.isPublic(modifiers) || (protectedCounts && Modifier.isProtected(modifiers));
    }

    /** A member as Java declares it, its name without the declaring type's (a constructor is {@code <init>}). */
    private static String signature(Member m) {
        String declared = switch (m) {
            case Field f -> f.toGenericString();
            case Constructor<?> k -> k.toGenericString();
            case Method me -> me.toGenericString();
            default -> throw new IllegalArgumentException(m.toString());
        };
        String owner = m.getDeclaringClass().getName();
        String qualified = m instanceof Constructor<?> ? owner + "(" : owner + "." + m.getName();
        String local = m instanceof Constructor<?> ? "<init>(" : m.getName();
        int at = declared.indexOf(" " + qualified);
        return at < 0 && declared.startsWith(qualified) ? local + declared.substring(qualified.length())
                : at < 0 ? declared : declared.substring(0, at + 1) + local + declared.substring(at + 1 + qualified.length());
    }

    /** The artifact's public types (nested ones too, where every enclosing type is public), by name. */
    static List<Class<?>> publicTypes(String module, List<String> packages) throws Exception {
        List<Class<?>> out = new ArrayList<>();
        for (String name : classNames(module)) {
            String pkg = name.lastIndexOf('.') < 0 ? "" : name.substring(0, name.lastIndexOf('.'));
            if (!packages.contains(pkg)) {
                continue;
            }
            Class<?> c = Class.forName(name, false, PublicApiTest.class.getClassLoader());
            if (c.isSynthetic() || c.isAnonymousClass() || c.isLocalClass()) {
                continue;
            }
            boolean visible = true;
            for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
                visible &= Modifier.isPublic(k.getModifiers());
            }
            if (visible) {
                out.add(c);
            }
        }
        out.sort((a, b) -> a.getName().compareTo(b.getName()));
        return out;
    }

    /** A module's entry on the test class path: its reactor folder or its jar (ModulePathTest uses it too). */
    static Path classPathEntry(String module) {
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            if (p.endsWith(Path.of(module, "target", "classes"))
                    || p.getFileName().toString().matches("remotepath-" + module + "-[0-9].*(?<!-tests)\\.jar")) {
                return p;
            }
        }
        throw new IllegalStateException("remotepath-" + module + " is not on the test class path");
    }

    /** Every class of a module. */
    private static List<String> classNames(String module) throws IOException {
        Path p = classPathEntry(module);
        if (Files.isDirectory(p)) {
            return classesUnder(p);
        }
        try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + p.toUri()), Map.of())) {
            return classesUnder(zip.getPath("/"));
        }
    }

    /** One file of a module's classes. */
    private static java.io.InputStream classFile(String module, String name) throws IOException {
        Path p = classPathEntry(module);
        if (Files.isDirectory(p)) {
            return Files.newInputStream(p.resolve(name));
        }
        try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + p.toUri()), Map.of())) {
            return new java.io.ByteArrayInputStream(Files.readAllBytes(zip.getPath("/", name)));
        }
    }

    private static List<String> classesUnder(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(f -> root.relativize(f).toString())
                    .filter(f -> f.endsWith(".class") && !f.endsWith("module-info.class") && !f.startsWith("META-INF"))
                    .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.'))
                    .sorted().toList();
        }
    }

    /** The lines only one side has, marked as a diff would. */
    private static String difference(String checked, String now) {
        List<String> was = checked.lines().toList();
        List<String> is = now.lines().toList();
        StringBuilder d = new StringBuilder();
        was.stream().filter(l -> !l.isBlank() && !is.contains(l)).forEach(l -> d.append("- ").append(l).append('\n'));
        is.stream().filter(l -> !l.isBlank() && !was.contains(l)).forEach(l -> d.append("+ ").append(l).append('\n'));
        return d.toString();
    }
}
