package dev.remotepath.cli;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A command's command-line syntax: its options and positional parameters, bound to the
 * command's fields by setters, and the help text made from them. {@link #parse} reads a whole
 * {@code rpath} command line: global options anywhere, the subcommand's name, its options and
 * its positional parameters.
 *
 * <p>The conventions are the usual ones: {@code --name=value} or {@code --name value},
 * {@code -a value} or {@code -avalue}, clustered short flags ({@code -lR}), {@code --} ends
 * the options. A mistake is a {@link UsageException} saying what is wrong. Hand-written rather
 * than a library's: a library that builds its model at run time cost each command ~25 ms of a
 * ~200 ms process (docs/cli.md).
 */
final class Syntax {

    /** Takes an argument's text; a conversion throws {@link IllegalArgumentException} saying what is wrong. */
    @FunctionalInterface
    interface Setter {
        void set(String value);
    }

    /** An option: a flag when {@code label} is empty, else it takes a value (once, or again and again). */
    private record Option(List<String> names, String label, String description, boolean repeatable, Setter setter) {

        boolean isFlag() {
            return label.isEmpty();
        }

        String name() {
            return names.getLast();
        }
    }

    /** A positional parameter: one value, or {@code min} or more; {@code rest} takes every later argument as is. */
    private record Positional(String label, int min, boolean many, boolean rest, Setter setter) {
    }

    private static final int WIDTH = 80;
    private static final int NAME_COLUMN = 27;

    private final String usageName;
    private final List<String> description;
    private final List<Option> options = new ArrayList<>();
    private final List<Positional> positionals = new ArrayList<>();
    private final List<List<String>> exclusive = new ArrayList<>();

    /** @param usageName how the usage line names the command ({@code rpath sync}) */
    Syntax(String usageName, String... description) {
        this.usageName = usageName;
        this.description = List.of(description);
    }

    /** How help and errors name the command: {@code rpath sync}. */
    String usageName() {
        return usageName;
    }

    /** The subcommand's own name ({@code sync}), as error messages start with it. */
    String commandName() {
        return usageName.substring(usageName.lastIndexOf(' ') + 1);
    }

    /** The first line of the description, for a list of commands. */
    String summary() {
        return description.isEmpty() ? "" : description.getFirst();
    }

    Syntax flag(Runnable set, String description, String... names) {
        options.add(new Option(List.of(names), "", description, false, v -> set.run()));
        return this;
    }

    /** An option taking one value, given at most once. */
    Syntax option(String label, Setter set, String description, String... names) {
        options.add(new Option(List.of(names), label, description, false, set));
        return this;
    }

    /** An option taking one value each time it is given. */
    Syntax repeatable(String label, Setter add, String description, String... names) {
        options.add(new Option(List.of(names), label, description, true, add));
        return this;
    }

    /** The next positional parameter: exactly one value. */
    Syntax positional(String label, Setter set) {
        positionals.add(new Positional(label, 1, false, false, set));
        return this;
    }

    /** A positional parameter that may be left out (the last one given): its default stays. */
    Syntax optional(String label, Setter set) {
        positionals.add(new Positional(label, 0, false, false, set));
        return this;
    }

    /** The last positional parameter: {@code min} or more values. */
    Syntax positionals(String label, int min, Setter add) {
        positionals.add(new Positional(label, min, true, false, add));
        return this;
    }

    /** The last positional parameter: every argument after the ones before, options or not, as is. */
    Syntax rest(String label, Setter add) {
        positionals.add(new Positional(label, 0, true, true, add));
        return this;
    }

    /** An option as shell completion sees it: its names, its value's label (empty for a flag), its description. */
    record Completable(List<String> names, String label, String description) {
    }

    /** The options, for shell completion. */
    List<Completable> completables() {
        return options.stream().map(o -> new Completable(o.names, o.label, o.description)).toList();
    }

    /** At most one of these options (by their names) may be given. */
    Syntax exclusive(String... names) {
        exclusive.add(List.of(names));
        return this;
    }

    // ------------------------------------------------------------------ parsing

    /**
     * Parses {@code args} into {@code global} (options valid before and after the subcommand) and
     * the subcommand that {@code commands} makes from its name (null for an unknown name), and
     * returns that subcommand, empty when none was named. Required parameters and exclusive
     * options are checked by {@link Parsed#validate}, which help and version requests skip.
     */
    static Parsed parse(Syntax global, Function<String, Command> commands, String[] args) throws UsageException {
        Command command = null;
        Syntax syntax = global;
        int[] given = new int[0];
        int position = 0;
        // By identity: a record's own hashCode is bootstrapped by invokedynamic, which spun six
        // classes in a fresh JVM (~11 ms of every command's start) to hash what is one object.
        Set<Option> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        boolean optionsEnded = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (command != null && position < syntax.positionals.size() && syntax.positionals.get(position).rest) {
                for (int k = i; k < args.length; k++) {
                    syntax.positionals.get(position).setter.set(args[k]);
                }
                given[position]++;
                break;
            }
            if (!optionsEnded && arg.equals("--")) {
                optionsEnded = true;
            } else if (!optionsEnded && arg.startsWith("-") && arg.length() > 1) {
                i = option(syntax, global, args, i, seen);
            } else if (command == null) {
                command = commands.apply(arg);
                if (command == null) {
                    throw new UsageException(global, "Unknown command: '" + arg + "'");
                }
                syntax = command.syntax();
                given = new int[syntax.positionals.size()];
            } else {
                if (position >= syntax.positionals.size()) {
                    throw new UsageException(syntax, "Unmatched argument at index " + i + ": '" + arg + "'");
                }
                Positional p = syntax.positionals.get(position);
                set(syntax, p.setter, arg, "positional parameter '" + p.label + "'");
                given[position]++;
                if (!p.many) {
                    position++;
                }
            }
        }
        return new Parsed(Optional.ofNullable(command), syntax, given, seen);
    }

    /** Reads the option at {@code args[i]} (and its value), returning the index of the last argument used. */
    private static int option(Syntax syntax, Syntax global, String[] args, int i, Set<Option> seen)
            throws UsageException {
        String arg = args[i];
        int eq = arg.startsWith("--") ? arg.indexOf('=') : -1;
        String name = eq < 0 ? arg : arg.substring(0, eq);
        Option o = find(syntax, global, name);
        if (o == null && !arg.startsWith("--")) {
            return cluster(syntax, global, args, i, seen);
        }
        if (o == null) {
            throw new UsageException(syntax, "Unknown option: '" + name + "'");
        }
        if (o.isFlag()) {
            if (eq >= 0) {
                throw new UsageException(syntax, "Option '" + name + "' takes no value: '" + arg + "'");
            }
            give(syntax, o, null, seen);
            return i;
        }
        if (eq >= 0) {
            give(syntax, o, arg.substring(eq + 1), seen);
            return i;
        }
        return giveNext(syntax, o, args, i, seen);
    }

    /** {@code -lR}: short flags together, the last of which may take the rest, or the next argument, as its value. */
    private static int cluster(Syntax syntax, Syntax global, String[] args, int i, Set<Option> seen)
            throws UsageException {
        String arg = args[i];
        for (int k = 1; k < arg.length(); k++) {
            Option o = find(syntax, global, "-" + arg.charAt(k));
            if (o == null) {
                throw new UsageException(syntax, "Unknown option: '" + (k == 1 ? arg : "-" + arg.charAt(k)) + "'");
            }
            if (!o.isFlag()) {
                if (k + 1 < arg.length()) {
                    // -amd5, and -a=md5 as the long form's --algorithm=md5
                    int from = arg.charAt(k + 1) == '=' ? k + 2 : k + 1;
                    give(syntax, o, arg.substring(from), seen);
                    return i;
                }
                return giveNext(syntax, o, args, i, seen);
            }
            give(syntax, o, null, seen);
        }
        return i;
    }

    /** Gives {@code o} the argument after {@code args[i]} as its value; returns that argument's index. */
    private static int giveNext(Syntax syntax, Option o, String[] args, int i, Set<Option> seen) throws UsageException {
        if (i + 1 >= args.length) {
            throw new UsageException(syntax, "Missing required parameter for option '" + o.name() + "' (" + o.label + ")");
        }
        give(syntax, o, args[i + 1], seen);
        return i + 1;
    }

    private static Option find(Syntax syntax, Syntax global, String name) {
        for (Syntax s : syntax == global ? List.of(global) : List.of(syntax, global)) {
            for (Option o : s.options) {
                if (o.names.contains(name)) {
                    return o;
                }
            }
        }
        return null;
    }

    private static void give(Syntax syntax, Option o, String value, Set<Option> seen) throws UsageException {
        if (!seen.add(o) && !o.isFlag() && !o.repeatable) {
            throw new UsageException(syntax, "Option '" + o.name() + "' should be specified only once");
        }
        set(syntax, o.setter, value, "option '" + o.name() + "'");
    }

    private static void set(Syntax syntax, Setter setter, String value, String what) throws UsageException {
        try {
            setter.set(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException(syntax, "Invalid value for " + what + ": " + e.getMessage());
        }
    }

    /** What {@link #parse} found: the subcommand, if one was named, and what is left to check. */
    static final class Parsed {
        private final Optional<Command> command;
        private final Syntax syntax;
        private final int[] given;
        private final Set<Option> seen;

        private Parsed(Optional<Command> command, Syntax syntax, int[] given, Set<Option> seen) {
            this.command = command;
            this.syntax = syntax;
            this.given = given;
            this.seen = seen;
        }

        Optional<Command> command() {
            return command;
        }

        /** The syntax help and errors describe: the subcommand's, or the global one. */
        Syntax syntax() {
            return syntax;
        }

        /** Checks that every required parameter was given and no two exclusive options were. */
        void validate() throws UsageException {
            List<String> missing = new ArrayList<>();
            for (int p = 0; p < given.length; p++) {
                if (given[p] < syntax.positionals.get(p).min) {
                    missing.add("'" + syntax.positionals.get(p).label + "'");
                }
            }
            if (missing.size() == 1) {
                throw new UsageException(syntax, "Missing required parameter: " + missing.getFirst());
            }
            if (!missing.isEmpty()) {
                throw new UsageException(syntax, "Missing required parameters: " + String.join(", ", missing));
            }
            for (List<String> group : syntax.exclusive) {
                List<String> both = new ArrayList<>();
                for (Option o : seen) {
                    if (group.contains(o.name())) {
                        both.add(o.name());
                    }
                }
                if (both.size() > 1) {
                    throw new UsageException(syntax, "Error: " + String.join(", ", group)
                            + " are mutually exclusive (specify only one)");
                }
            }
        }
    }

    // ------------------------------------------------------------------ conversions

    static int toInt(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not an int");
        }
    }

    static int toPositiveInt(String value, String option) {
        int n = toInt(value);
        if (n < 1) {
            throw new IllegalArgumentException(option + " must be at least 1: " + n);
        }
        return n;
    }

    static long toLong(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not a long");
        }
    }

    /**
     * A byte rate as rclone's {@code --bwlimit} takes it: bytes per second, with an optional
     * binary suffix ({@code 512K}, {@code 10M}, {@code 1.5G}; {@code B} for bytes); positive.
     */
    static long toByteRate(String value) {
        String v = value.strip();
        long unit = 1;
        if (!v.isEmpty()) {
            switch (Character.toUpperCase(v.charAt(v.length() - 1))) {
                case 'B' -> unit = 1;
                case 'K' -> unit = 1L << 10;
                case 'M' -> unit = 1L << 20;
                case 'G' -> unit = 1L << 30;
                case 'T' -> unit = 1L << 40;
                default -> unit = 0;
            }
            if (unit != 0) {
                v = v.substring(0, v.length() - 1);
            } else {
                unit = 1;
            }
        }
        double n;
        try {
            n = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not a byte rate (e.g. 512K, 10M, 1.5G)");
        }
        if (!(n > 0) || Double.isInfinite(n) || n * unit < 1) {
            throw new IllegalArgumentException("'" + value + "' is not a positive byte rate");
        }
        return (long) Math.min(Long.MAX_VALUE, n * unit);
    }

    /**
     * A duration as people write it: {@code 90} (seconds), {@code 90s}, {@code 500ms},
     * {@code 2m}, {@code 1h30m}; positive and at most 24 days.
     */
    static java.time.Duration toDuration(String value) {
        // Compiled here, not in a static field: every command loads Syntax, few pass a duration.
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,9})(ms|s|m|h)").matcher(value);
        java.time.Duration total = java.time.Duration.ZERO;
        int at = 0;
        try {
            if (value.matches("[0-9]{1,9}")) {
                total = java.time.Duration.ofSeconds(Long.parseLong(value));
                at = value.length();
            }
            while (at < value.length() && m.find(at) && m.start() == at) {
                long n = Long.parseLong(m.group(1));
                total = total.plus(switch (m.group(2)) {
                    case "ms" -> java.time.Duration.ofMillis(n);
                    case "s" -> java.time.Duration.ofSeconds(n);
                    case "m" -> java.time.Duration.ofMinutes(n);
                    default -> java.time.Duration.ofHours(n);
                });
                at = m.end();
            }
        } catch (ArithmeticException e) {
            at = -1;
        }
        if (value.isEmpty() || at != value.length() || total.isZero()) {
            throw new IllegalArgumentException("'" + value + "' is not a duration (say 30s, 500ms, 2m or 1h30m)");
        }
        // Every duration flag is a timeout: bounded here as the backends' options bound them
        // (spi.Timeouts), so the message names the flag rather than the option behind it.
        if (total.compareTo(dev.remotepath.spi.Timeouts.LONGEST) > 0) {
            throw new IllegalArgumentException("'" + value + "' is longer than the 24 days a timeout may be");
        }
        return total;
    }

    /** A size in bytes: {@code 4096}, {@code 64K}, {@code 8M}, {@code 1G} (powers of 1024). */
    static long toSize(String value) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,15})([KMG]i?B?|B)?", java.util.regex.Pattern.CASE_INSENSITIVE)
                .matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + value + "' is not a size (say 4096, 64K, 8M or 1G)");
        }
        long n = Long.parseLong(m.group(1));
        int shift = m.group(2) == null ? 0 : switch (Character.toUpperCase(m.group(2).charAt(0))) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            default -> 0;
        };
        if (n > Long.MAX_VALUE >> shift) {
            throw new IllegalArgumentException("'" + value + "' is larger than any size a bound takes");
        }
        return n << shift;
    }

    /** A buffer's size ({@link #toSize}): {@code min} to {@code max} bytes, {@code what} saying whose. */
    static int toBufferSize(String value, long min, long max, String what) {
        long n = toSize(value);
        if (n < min || n > max) {
            throw new IllegalArgumentException("'" + value + "' is outside " + what + " (" + min + " to " + max
                    + " bytes)");
        }
        return (int) n;
    }

    static URI toUri(String value) {
        try {
            return new URI(value);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("'" + value + "' is not a URI (" + e.getReason() + ")");
        }
    }

    static java.nio.file.Path toPath(String value) {
        try {
            return java.nio.file.Path.of(value);
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("'" + value.replace("\0", "\\0") + "' is not a path (" + e.getReason() + ")");
        }
    }

    // ------------------------------------------------------------------ help

    /** {@code Usage: NAME [OPTION]... PARAMS}. */
    String usageLine() {
        StringBuilder sb = new StringBuilder("Usage: ").append(usageName);
        sb.append(usageName.indexOf(' ') < 0 ? " [-hV] [OPTION]... COMMAND [ARG]..." : " [OPTION]...");
        for (Positional p : positionals) {
            sb.append(' ').append(p.min == 0 ? "[" + p.label + (p.many ? "...]" : "]") : p.many ? p.label + "..." : p.label);
        }
        return sb.toString();
    }

    /** The usage line and the description. */
    void describe(StringBuilder out) {
        out.append(usageLine()).append('\n');
        for (String line : description) {
            out.append(line).append('\n');
        }
    }

    /** The options, one per line with their descriptions: {@code -a, --algorithm=ALGORITHM}. */
    void listOptions(StringBuilder out) {
        for (Option o : options) {
            List<String> shortNames = o.names.stream().filter(n -> !n.startsWith("--")).toList();
            StringBuilder names = new StringBuilder(shortNames.isEmpty() ? "      " : "  ");
            names.append(String.join(", ", o.names));
            if (!o.isFlag()) {
                names.append(o.name().startsWith("--") ? "=" : " ").append(o.label);
            }
            if (o.repeatable) {
                names.append("...");
            }
            column(out, names.toString(), o.description);
        }
    }

    private static void column(StringBuilder out, String left, String text) {
        column(out, left, NAME_COLUMN, text);
    }

    /** {@code left}, then {@code text} from column {@code at}, wrapped at {@link #WIDTH}. */
    static void column(StringBuilder out, String left, int at, String text) {
        StringBuilder line = new StringBuilder(left);
        if (line.length() >= at) {
            out.append(line).append('\n');
            line.setLength(0);
        }
        String indent = " ".repeat(at);
        line.append(" ".repeat(at - line.length()));
        int start = line.length();
        for (String word : text.split(" ")) {
            if (line.length() > start && line.length() + 1 + word.length() > WIDTH) {
                out.append(line).append('\n');
                line.setLength(0);
                line.append(indent).append("  ");
                start = line.length();
            }
            if (line.length() > start) {
                line.append(' ');
            }
            line.append(word);
        }
        out.append(line).append('\n');
    }
}
