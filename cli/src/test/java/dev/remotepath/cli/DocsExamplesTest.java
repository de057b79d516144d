package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java, JavaScript and Groovy example in README.md and docs/*.md, taken from its fenced
 * block: each Java block is compiled with only the imports it shows (a block of statements
 * becomes a method body), and those that need no server are run; each script is run through
 * {@code rpath script}. What would touch the machine's own directories is pointed at scratch
 * directories first ({@link #SCRATCH}), so a reader's copy of an example does what the test saw.
 */
class DocsExamplesTest {

    /** The directories examples name, and where the test puts them instead. */
    private static final List<String> SCRATCH = List.of("/srv/reports", "/srv/www", "/backup");

    private static final Pattern FENCE = Pattern.compile("(?m)^```(java|js|groovy)\\n(.*?)^```$", Pattern.DOTALL);

    @TempDir
    Path temp;

    record Example(Path file, int line, String language, String code) {
        String where() {
            return file.getFileName() + ":" + line;
        }

        /** Needs a server: an sftp, s3, az, http(s) webdav(s) or ftp(s) URI in a string. */
        boolean needsServer() {
            return code.matches("(?s).*\"(sftp|s3|az|https?|webdavs?|ftps?)://.*");
        }
    }

    static Path repository() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("README.md"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository's root").isNotNull();
        return dir;
    }

    static List<Example> examples() throws Exception {
        Path root = repository();
        List<Path> files = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(f -> f.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Example> out = new ArrayList<>();
        for (Path f : files) {
            String text = Files.readString(f);
            Matcher m = FENCE.matcher(text);
            while (m.find()) {
                int line = (int) text.substring(0, m.start()).lines().count() + 1;
                out.add(new Example(f, line, m.group(1), m.group(2)));
            }
        }
        return out;
    }

    private String scratched(String code) throws Exception {
        for (String dir : SCRATCH) {
            Path scratch = temp.resolve(dir.substring(1).replace('/', '_'));
            code = code.replace("file://" + dir, scratch.toUri().toString().replaceAll("/$", "")).replace("'" + dir, "'" + scratch)
                    .replace("\"" + dir, "\"" + scratch);
        }
        return code;
    }

    private void scratchTrees() throws Exception {
        Path reports = Files.createDirectories(temp.resolve("srv_reports/2026"));
        Files.writeString(reports.resolve("q4.csv"), "quarter,total\n4,100\n");
        Files.writeString(reports.getParent().resolve("notes.txt"), "notes");
        Path www = Files.createDirectories(temp.resolve("srv_www/css"));
        Files.writeString(temp.resolve("srv_www/index.html"), "<h1>hi</h1>");
        Files.writeString(www.resolve("site.css"), "h1{}");
        Files.writeString(temp.resolve("srv_www/draft.tmp"), "tmp");
    }

    @Test
    void everyJavaExampleCompilesAndThoseWithoutServersRun() throws Exception {
        scratchTrees();
        List<Example> java = examples().stream().filter(e -> e.language().equals("java")).toList();
        assertThat(java).hasSizeGreaterThanOrEqualTo(9);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        Path sources = Files.createDirectories(temp.resolve("src"));
        Path classes = Files.createDirectories(temp.resolve("classes"));
        List<String> runnable = new ArrayList<>();
        List<Path> units = new ArrayList<>();
        for (int i = 0; i < java.size(); i++) {
            Example e = java.get(i);
            String code = scratched(e.code());
            StringBuilder imports = new StringBuilder();
            StringBuilder body = new StringBuilder();
            boolean declaresClass = code.lines().anyMatch(l -> l.matches("(public |abstract |final )*class \\w+.*"));
            for (String l : code.lines().toList()) {
                (l.startsWith("import ") ? imports : body).append(l).append('\n');
            }
            String name = declaresClass ? code.replaceAll("(?s).*?class (\\w+).*", "$1") : "DocExample" + i;
            String unit = "// " + e.where() + "\n" + imports + (declaresClass ? body
                    : "public class " + name + " {\n    public static void run() throws Exception {\n" + body + "    }\n}\n");
            Path file = Files.writeString(Files.createDirectories(sources.resolve("d" + i)).resolve(name + ".java"), unit);
            units.add(file);
            if (!declaresClass && !e.needsServer()) {
                runnable.add(name + " " + e.where());
            }
        }
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                "-proc:none", "-Xlint:none"));
        units.forEach(u -> args.add(u.toString()));
        int rc = compiler.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
        assertThat(rc).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

        assertThat(runnable).hasSizeGreaterThanOrEqualTo(3);
        PrintStream realOut = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new java.net.URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            for (String r : runnable) {
                String cls = r.substring(0, r.indexOf(' '));
                try {
                    loader.loadClass(cls).getMethod("run").invoke(null);
                } catch (java.lang.reflect.InvocationTargetException ex) {
                    throw new AssertionError("the example at " + r.substring(r.indexOf(' ') + 1) + " failed: "
                            + ex.getCause(), ex.getCause());
                }
            }
        } finally {
            System.setOut(realOut);
        }
        String out = printed.toString(StandardCharsets.UTF_8);
        // README's example: the listing, the checksum of q4.csv, the sync's report.
        assertThat(out).contains("2026 DIRECTORY", "notes.txt FILE 5", "/srv_reports/2026/q4.csv\n",
                "2 copied, 0 unchanged, errors []");
        assertThat(dev.remotepath.RemotePaths.get("mem://scratch/q4.csv").readString()).isEqualTo("quarter,total\n4,100\n");
        // scripting.md's embedding example synced the scratch www tree and printed the count.
        assertThat(out).contains("3\n");
    }

    @Test
    void everyScriptExampleRunsAgainstScratchDirectories() throws Exception {
        scratchTrees();
        List<Example> scripts = examples().stream().filter(e -> !e.language().equals("java")).toList();
        assertThat(scripts).extracting(Example::language).contains("js", "groovy");
        int n = 0;
        for (Example e : scripts) {
            Path script = Files.writeString(temp.resolve("example" + n++ + "." + e.language()), scratched(e.code()));
            String target = "mem://docs-backup-" + n;
            RpathTest.Result r = RpathTest.rpath("script", script.toString(), temp.resolve("srv_www").toString(), target);
            assertThat(r.code()).as(e.where() + ": " + r.err()).isZero();
            assertThat(r.out()).as(e.where()).contains("copied ");
            assertThat(dev.remotepath.RemotePaths.get(target + "/www/index.html").readString()).isEqualTo("<h1>hi</h1>");
            assertThat(Files.exists(Path.of("/backup/www"))).as("nothing written to the machine's /backup").isFalse();
        }
        assertThat(Map.of()).isEmpty();
    }
}
