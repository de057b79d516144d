package dev.remotepath.bench;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The C baseline for listings ({@code dirlist.c}): getdents64, and statx per entry for the
 * stat rows, in one downcall per directory. Compiled at prepare time with the machine's
 * {@code cc}; absent (and its rows skipped) where there is none.
 */
final class CLister {

    private final MethodHandle types;
    private final MethodHandle stats;

    private CLister(MethodHandle types, MethodHandle stats) {
        this.types = types;
        this.stats = stats;
    }

    /** Compiles the baseline into {@code work}, or empty when no C compiler is found. */
    static Optional<CLister> compile(Path work) throws Exception {
        Path cc = Path.of("/usr/bin/cc");
        if (!Files.isExecutable(cc)) {
            return Optional.empty();
        }
        Files.createDirectories(work);
        Path source = work.resolve("dirlist.c");
        try (InputStream in = CLister.class.getResourceAsStream("dirlist.c")) {
            if (in == null) {
                throw new IOException("dirlist.c is missing from the benchmarks jar");
            }
            Files.copy(in, source, StandardCopyOption.REPLACE_EXISTING);
        }
        Path library = work.resolve("libdirlist.so");
        Fixtures.exec(cc.toString(), "-O2", "-shared", "-fPIC", "-o", library.toString(), source.toString());
        SymbolLookup lookup = SymbolLookup.libraryLookup(library, Arena.global());
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor f = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
        return Optional.of(new CLister(linker.downcallHandle(lookup.findOrThrow("rp_list_types"), f),
                linker.downcallHandle(lookup.findOrThrow("rp_list_stats"), f)));
    }

    long listTypes(Path dir) throws IOException {
        return call(types, dir);
    }

    long listStats(Path dir) throws IOException {
        return call(stats, dir);
    }

    private static long call(MethodHandle h, Path dir) throws IOException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment name = a.allocateFrom(dir.toString());
            long n = (long) h.invokeExact(name);
            if (n < 0) {
                throw new IOException("the C lister failed on " + dir);
            }
            return n;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(t);
        }
    }
}
