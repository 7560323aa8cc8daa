import IntercomBase

/// docs/REFERENCE.md: every command and option (from the command tables), event, control-socket
/// command, exit code, environment variable and file. `intercom help --reference` prints it,
/// `make docs` writes it, and a test fails when the committed file differs.
public enum CommandReference {
    /// Without the final newline (a line printer adds it).
    public static func markdown(_ commands: [CommandDescription]) -> String {
        var lines = [
            "# intercom reference",
            "",
            "<!-- Generated from the command tables (Sources/IntercomCLI/CommandLine/CommandIndex.swift and each"
                + " command's spec), the event and control-socket tables: run `make docs`"
                + " (or `intercom help --reference > docs/REFERENCE.md`); do not edit by hand. -->",
            "",
            ReferenceFacts.description,
            "",
            "The config file's sections and keys: [CONFIG.md](CONFIG.md) (`intercom config --reference`). "
                + "Man pages: `intercom`(1), `intercom-config`(5).",
            "",
            "## Commands",
            "",
            ReferenceFacts.commonOptions,
            "",
            "| command | what it does |",
            "|---|---|",
        ]
        for command in commands {
            lines.append("| [`\(command.name)`](#intercom-\(command.name)) | \(cell(command.summary)) |")
        }
        for command in commands {
            lines += ["", "### intercom \(command.name)", "", "```text", command.usage, "```", "", capitalized(command.summary) + "."]
            for paragraph in command.detailParagraphs { lines += ["", paragraph] }
            if !command.actions.isEmpty {
                lines += ["", "Actions: " + command.actions.map { "`\($0.usageText)`" }.joined(separator: ", ") + "."]
            }
            if !command.options.isEmpty {
                lines += ["", "| option | meaning |", "|---|---|"]
                for option in command.options {
                    lines.append("| `\(option.usageText)` | \(cell(optionHelp(option))) |")
                }
            }
        }
        lines += ["", "### Options of every command", "", "| option | meaning |", "|---|---|"]
        for option in CommandSpec.commonOptions {
            lines.append("| `\(option.usageText)` | \(cell(optionHelp(option))) |")
        }
        lines += ["", "## Exit codes", "", ReferenceFacts.errors, "", "| code | meaning |", "|---|---|"]
        lines += ExitCode.reference.map { "| \($0.name) | \(cell($0.about)) |" }
        lines += ["", "## Events", "",
                  "`intercom daemon --events json` prints one JSON object per line, `intercom ctl events` streams the same, "
                      + "and `[hooks] on_EVENT` runs a program for each. Every event has \(EventName.commonFields); "
                      + "call events then have \(EventName.callFields).",
                  "", "| event | fields | meaning |", "|---|---|---|"]
        lines += EventName.allCases.map(\.reference).map { "| `\($0.name)` | \(cell($0.fields)) | \(cell($0.about)) |" }
        lines += ["", "## Control socket", "", ControlCommandReference.intro, "", "| command | fields | what it does |", "|---|---|---|"]
        lines += ControlCommandReference.all.map { "| `\($0.name)` | \(cell($0.fields)) | \(cell($0.about)) |" }
        lines += ["", "## Environment", "", "| variable | meaning |", "|---|---|"]
        lines += ReferenceFacts.environment.map { "| `\($0.name)` | \(cell($0.about)) |" }
        lines += ["", "## Files", "", "| path | what |", "|---|---|"]
        lines += ReferenceFacts.files.map { "| `\($0.name)` | \(cell($0.about)) |" }
        return lines.joined(separator: "\n")
    }

    static func optionHelp(_ option: OptionSpec) -> String {
        option.choices.isEmpty || option.choices.allSatisfy({ option.help.contains($0) })
            ? option.help : "\(option.help) (\(option.choices.joined(separator: ", ")))"
    }

    static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    /// A table cell: a `|` would end it, a line break would end the row.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
