package dev.remotepath.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code rpath completion bash|zsh}: a completion script for the shell, made from the same
 * option tables the parser uses, so it never lists an option that does not exist. It completes
 * subcommands, each subcommand's options and the global ones, option values where they are a
 * fixed set ({@code --sftp-client}, {@code --log-level}, {@code -a}), and local paths for files
 * and arguments.
 */
final class CompletionCommand implements Command {

    final Rpath rpath;
    String shell;

    CompletionCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath completion", "Print a shell completion script (bash or zsh).",
                "bash: source <(rpath completion bash), or save it as",
                "  ~/.local/share/bash-completion/completions/rpath.",
                "zsh: save it as _rpath in a directory of $fpath (before compinit runs).")
                .positional("SHELL", v -> shell = v.toLowerCase(Locale.ROOT));
    }

    @Override
    public Integer call() {
        String script = switch (shell) {
            case "bash" -> bash(rpath.globalSyntax(), rpath.commandSyntaxes());
            case "zsh" -> zsh(rpath.globalSyntax(), rpath.commandSyntaxes());
            default -> throw new IllegalArgumentException("no completion for the shell '" + shell + "' (bash or zsh)");
        };
        rpath.out.print(script);
        return Failures.OK;
    }

    /** The fixed values an option's label stands for, or none. */
    static List<String> values(String label) {
        if (label.contains("|")) {
            return List.of(label.split("\\|"));
        }
        return switch (label) {
            case "LEVEL" -> List.of("off", "error", "warn", "info", "debug", "trace");
            case "ALGORITHM" -> List.of("md5", "sha1", "sha256", "sha512", "crc32", "crc32c", "crc64nvme");
            case "SHELL" -> List.of("bash", "zsh");
            default -> List.of();
        };
    }

    private static List<String> names(Syntax s, boolean withValue) {
        List<String> out = new ArrayList<>();
        for (Syntax.Completable o : s.completables()) {
            if (withValue == !o.label().isEmpty()) {
                out.addAll(o.names());
            }
        }
        return out;
    }

    /** Option name to label, for the options that take a value. */
    private static Map<String, String> valueLabels(Syntax global, Map<String, Syntax> commands) {
        Map<String, String> labels = new LinkedHashMap<>();
        List<Syntax> all = new ArrayList<>(commands.values());
        all.addFirst(global);
        for (Syntax s : all) {
            for (Syntax.Completable o : s.completables()) {
                if (!o.label().isEmpty()) {
                    for (String n : o.names()) {
                        labels.putIfAbsent(n, o.label());
                    }
                }
            }
        }
        return labels;
    }

    static String bash(Syntax global, Map<String, Syntax> commands) {
        StringBuilder sb = new StringBuilder();
        sb.append("# rpath completion for bash (rpath completion bash). Load it with: source <(rpath completion bash)\n");
        sb.append("_rpath() {\n");
        sb.append("  local cur prev cmd= i opts\n");
        sb.append("  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n");
        sb.append("  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n");
        sb.append("  COMPREPLY=()\n");
        sb.append("  for ((i = 1; i < COMP_CWORD; i++)); do\n");
        sb.append("    case \"${COMP_WORDS[i]}\" in\n");
        sb.append("      ").append(String.join("|", commands.keySet())).append(") cmd=\"${COMP_WORDS[i]}\"; break;;\n");
        sb.append("    esac\n");
        sb.append("  done\n");
        sb.append("  case \"$prev\" in\n");
        Map<String, String> labels = valueLabels(global, commands);
        for (Map.Entry<String, String> e : groupByCompletion(labels).entrySet()) {
            sb.append("    ").append(e.getKey()).append(")\n      ").append(e.getValue()).append("\n      return;;\n");
        }
        sb.append("  esac\n");
        String globals = String.join(" ", names(global, false)) + " " + String.join(" ", names(global, true));
        sb.append("  if [[ -z \"$cmd\" ]]; then\n");
        sb.append("    if [[ \"$cur\" == -* ]]; then\n");
        sb.append("      COMPREPLY=($(compgen -W \"").append(globals).append("\" -- \"$cur\"))\n");
        sb.append("    else\n");
        sb.append("      COMPREPLY=($(compgen -W \"").append(String.join(" ", commands.keySet())).append("\" -- \"$cur\"))\n");
        sb.append("    fi\n");
        sb.append("    return\n");
        sb.append("  fi\n");
        sb.append("  case \"$cmd\" in\n");
        for (Map.Entry<String, Syntax> c : commands.entrySet()) {
            List<String> opts = new ArrayList<>(names(c.getValue(), false));
            opts.addAll(names(c.getValue(), true));
            sb.append("    ").append(c.getKey()).append(") opts=\"").append(String.join(" ", opts)).append("\";;\n");
        }
        sb.append("  esac\n");
        sb.append("  if [[ \"$cur\" == -* ]]; then\n");
        sb.append("    COMPREPLY=($(compgen -W \"$opts ").append(globals).append("\" -- \"$cur\"))\n");
        sb.append("  elif [[ \"$cmd\" == completion ]]; then\n");
        sb.append("    COMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\"))\n");
        sb.append("  else\n");
        sb.append("    compopt -o filenames 2> /dev/null\n");
        sb.append("    COMPREPLY=($(compgen -f -- \"$cur\"))\n");
        sb.append("  fi\n");
        sb.append("}\n");
        sb.append("complete -o default -F _rpath rpath\n");
        return sb.toString();
    }

    /** {@code case} patterns ({@code --a|--b}) to what completes their value. */
    private static Map<String, String> groupByCompletion(Map<String, String> labels) {
        Map<String, List<String>> byAction = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : labels.entrySet()) {
            List<String> values = values(e.getValue());
            String action = e.getValue().equals("FILE") ? "compopt -o filenames 2> /dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
                    : values.isEmpty() ? "COMPREPLY=()" // a number, a duration, a glob: nothing to offer
                    : "COMPREPLY=($(compgen -W \"" + String.join(" ", values) + "\" -- \"$cur\"))";
            byAction.computeIfAbsent(action, a -> new ArrayList<>()).add(e.getKey());
        }
        Map<String, String> out = new LinkedHashMap<>();
        byAction.forEach((action, names) -> out.put(String.join("|", names), action));
        return out;
    }

    static String zsh(Syntax global, Map<String, Syntax> commands) {
        StringBuilder sb = new StringBuilder();
        sb.append("#compdef rpath\n");
        sb.append("# rpath completion for zsh (rpath completion zsh): save as _rpath in a directory of $fpath.\n");
        sb.append("_rpath() {\n");
        sb.append("  local cmd= i prev=${words[CURRENT-1]}\n");
        sb.append("  local -a opts\n");
        sb.append("  for (( i = 2; i < CURRENT; i++ )); do\n");
        sb.append("    case ${words[i]} in\n");
        sb.append("      (").append(String.join("|", commands.keySet())).append(") cmd=${words[i]}; break;;\n");
        sb.append("    esac\n");
        sb.append("  done\n");
        sb.append("  case $prev in\n");
        Map<String, List<String>> byValues = new LinkedHashMap<>();
        valueLabels(global, commands).forEach((name, label) -> {
            List<String> values = values(label);
            String action = label.equals("FILE") ? "_files" : values.isEmpty() ? "return 1"
                    : "compadd -- " + String.join(" ", values);
            byValues.computeIfAbsent(action, a -> new ArrayList<>()).add(name);
        });
        byValues.forEach((action, names) -> sb.append("    (").append(String.join("|", names)).append(") ")
                .append(action).append("; return;;\n"));
        sb.append("  esac\n");
        sb.append("  local -a globals\n");
        sb.append("  globals=(").append(String.join(" ", names(global, false))).append(" ")
                .append(String.join(" ", names(global, true))).append(")\n");
        sb.append("  if [[ -z $cmd ]]; then\n");
        sb.append("    if [[ $PREFIX == -* ]]; then\n");
        sb.append("      compadd -- $globals\n");
        sb.append("    else\n");
        sb.append("      local -a subcommands\n");
        sb.append("      subcommands=(\n");
        for (Map.Entry<String, Syntax> c : commands.entrySet()) {
            sb.append("        '").append(c.getKey()).append(":").append(c.getValue().summary().replace("'", "'\\''"))
                    .append("'\n");
        }
        sb.append("      )\n");
        sb.append("      _describe 'rpath command' subcommands\n");
        sb.append("    fi\n");
        sb.append("    return\n");
        sb.append("  fi\n");
        sb.append("  case $cmd in\n");
        for (Map.Entry<String, Syntax> c : commands.entrySet()) {
            List<String> opts = new ArrayList<>(names(c.getValue(), false));
            opts.addAll(names(c.getValue(), true));
            sb.append("    (").append(c.getKey()).append(") opts=(").append(String.join(" ", opts)).append(");;\n");
        }
        sb.append("  esac\n");
        sb.append("  if [[ $PREFIX == -* ]]; then\n");
        sb.append("    compadd -- $opts $globals\n");
        sb.append("  elif [[ $cmd == completion ]]; then\n");
        sb.append("    compadd -- bash zsh\n");
        sb.append("  else\n");
        sb.append("    _files\n");
        sb.append("  fi\n");
        sb.append("}\n");
        sb.append("_rpath \"$@\"\n");
        return sb.toString();
    }
}
