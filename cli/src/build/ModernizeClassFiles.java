import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.classfile.ClassElement;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Build step of the CLI (run by the JDK as a source file, never shipped): rewrites the class
 * files of the shaded jar that predate Java 6 (picocli's are Java 5) as version 50 with stack
 * maps, so that the JVM verifies them with the fast split verifier and, above all, so that they
 * can enter the AOT cache, which refuses old class files. Semantics are unchanged: the same
 * elements are written back with a new version and computed stack map frames. A class that
 * cannot be rewritten (old jsr/ret subroutines) is kept as it was.
 *
 * <p>Usage: {@code java ModernizeClassFiles.java path/to/app.jar}
 */
public final class ModernizeClassFiles {

    private static final int JAVA_6 = 50;

    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args[0]);
        Path out = jar.resolveSibling(jar.getFileName() + ".modern");
        int rewritten = 0;
        int kept = 0;
        try (JarFile in = new JarFile(jar.toFile());
                URLClassLoader classes = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
                OutputStream os = Files.newOutputStream(out);
                JarOutputStream jos = new JarOutputStream(os)) {
            ClassFile cf = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                    ClassHierarchyResolver.defaultResolver().orElse(ClassHierarchyResolver.ofResourceParsing(classes))));
            Enumeration<JarEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                JarEntry e = entries.nextElement();
                byte[] bytes;
                try (InputStream is = in.getInputStream(e)) {
                    bytes = is.readAllBytes();
                }
                if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/") && majorVersion(bytes) < JAVA_6) {
                    try {
                        bytes = modernize(cf, bytes);
                        rewritten++;
                    } catch (RuntimeException failed) {
                        kept++;
                        System.err.println("kept as it was: " + e.getName() + " (" + failed.getMessage() + ")");
                    }
                }
                JarEntry copy = new JarEntry(e.getName());
                copy.setTime(e.getTime());
                jos.putNextEntry(copy);
                jos.write(bytes);
                jos.closeEntry();
            }
        }
        Files.move(out, jar, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("ModernizeClassFiles: " + rewritten + " class files rewritten as Java 6, " + kept + " kept");
    }

    private static int majorVersion(byte[] classFile) {
        return classFile.length < 8 ? Integer.MAX_VALUE : ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
    }

    private static byte[] modernize(ClassFile cf, byte[] bytes) {
        ClassModel model = cf.parse(bytes);
        return cf.build(model.thisClass().asSymbol(), builder -> {
            builder.withVersion(JAVA_6, 0);
            for (ClassElement element : model) {
                if (!(element instanceof ClassFileVersion)) {
                    builder.with(element);
                }
            }
        });
    }
}
