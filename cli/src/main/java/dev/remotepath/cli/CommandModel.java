package dev.remotepath.cli;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Builds picocli's command models in code, bound to the commands' fields. picocli can read the
 * same models from annotations, but a fresh JVM pays ~30 ms for that (each annotation type is
 * a dynamic proxy class spun at run time, and the reflection data is built cold): a sixth of a
 * whole {@code rpath sync} here. Parsing, help and error messages stay picocli's.
 */
final class CommandModel {

    private CommandModel() {
    }

    /** A command running {@code command} (a {@link java.util.concurrent.Callable} or {@link Runnable}). */
    static CommandSpec command(Object command, String name, String... description) {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command);
        spec.name(name);
        spec.usageMessage().description(description);
        return spec;
    }

    /** A boolean option that is true when given. */
    static OptionSpec.Builder flag(Consumer<Boolean> set, String description, String... names) {
        return OptionSpec.builder(names).type(boolean.class).arity("0").description(description)
                .initialValue(false).setter(setter(set));
    }

    /** An option taking one value of {@code type}. */
    static <T> OptionSpec.Builder option(Class<T> type, String label, Consumer<T> set, String description,
            String... names) {
        return OptionSpec.builder(names).type(type).paramLabel(label).description(description).hasInitialValue(false)
                .setter(setter(set));
    }

    /** A repeatable option collecting its values in the list field that {@code get} and {@code set} access. */
    static <T> OptionSpec.Builder repeatable(Class<T> type, String label, Supplier<List<T>> get, Consumer<List<T>> set,
            String description, String... names) {
        return OptionSpec.builder(names).type(List.class).auxiliaryTypes(type).paramLabel(label)
                .description(description).getter(getter(get)).setter(listSetter(set));
    }

    /** The positional parameter at {@code index}, of {@code type}. */
    static <T> PositionalParamSpec positional(String index, Class<T> type, String label, Consumer<T> set) {
        return PositionalParamSpec.builder().index(index).arity("1").required(true).type(type).paramLabel(label)
                .hasInitialValue(false).setter(setter(set)).build();
    }

    /** Positional parameters from {@code index} on, collected in the list field {@code get} and {@code set} access. */
    static <T> PositionalParamSpec positionals(String index, String arity, Class<T> type, String label,
            Supplier<List<T>> get, Consumer<List<T>> set) {
        return PositionalParamSpec.builder().index(index).arity(arity).required(!arity.startsWith("0")).type(List.class)
                .auxiliaryTypes(type).paramLabel(label).getter(getter(get)).setter(listSetter(set)).build();
    }

    /** At most one of {@code options} may be given. */
    static ArgGroupSpec oneOf(OptionSpec... options) {
        ArgGroupSpec.Builder group = ArgGroupSpec.builder().exclusive(true).multiplicity("0..1");
        for (OptionSpec o : options) {
            group.addArg(o);
        }
        return group.build();
    }

    private static IGetter getter(Supplier<?> get) {
        return new IGetter() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> T get() {
                return (T) get.get();
            }
        };
    }

    /** picocli resets a list to "no initial value" (null) before parsing: the field gets an empty list instead. */
    private static <T> ISetter listSetter(Consumer<List<T>> set) {
        return setter((List<T> v) -> set.accept(v == null ? new java.util.ArrayList<>() : v));
    }

    private static <V> ISetter setter(Consumer<V> set) {
        return new ISetter() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> T set(T value) {
                set.accept((V) value);
                return null;
            }
        };
    }
}
