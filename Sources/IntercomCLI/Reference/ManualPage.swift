import IntercomBase

/// intercom(1), made from the same tables as docs/REFERENCE.md: `intercom help --man` prints it,
/// `make install` installs it, and a test renders it with man(1).
public enum ManualPage {
    public static func roff(_ commands: [CommandDescription]) -> String {
        var lines = [
            ".\\\" Generated from the command tables (intercom help --man); do not edit.",
            ".TH INTERCOM 1 \"\" \"intercom \(IntercomVersion.string)\" \"User Commands\"",
            ".SH NAME",
            "intercom \\- terminal SIP intercom client for Beward door panels and SmartYard operators",
            ".SH SYNOPSIS",
            ".B intercom",
            "[\\fICOMMAND\\fR] [\\fIoptions\\fR] [\\fIarguments\\fR]",
            ".br",
            ".B intercom",
            "\\fICOMMAND\\fR \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR",
            ".SH DESCRIPTION",
            Roff.text(ReferenceFacts.description),
            ".PP",
            Roff.text(ReferenceFacts.commonOptions),
            ".SH COMMANDS",
        ]
        for command in commands {
            lines += [".SS \"\(Roff.literal(command.name))\"",
                      ".B \(Roff.literal(command.usage))", ".PP", Roff.text(CommandReference.capitalized(command.summary)) + "."]
            for paragraph in command.detailParagraphs { lines += [".PP", Roff.text(paragraph)] }
            if !command.actions.isEmpty {
                lines += [".PP", "Actions: " + command.actions.map { "\\fB\(Roff.literal($0.name))\\fR"
                    + ($0.arguments.isEmpty ? "" : " \(Roff.literal($0.arguments))") }.joined(separator: ", ") + "."]
            }
            for option in command.options { lines += optionItem(option) }
        }
        lines += [".SS \"Options of every command\""]
        for option in CommandSpec.commonOptions { lines += optionItem(option) }
        lines += [".SH \"EXIT STATUS\"", Roff.text(ReferenceFacts.errors)]
        lines += ExitCode.reference.flatMap { [".TP", "\\fB\($0.name)\\fR", Roff.text($0.about)] }
        lines += [".SH EVENTS",
                  Roff.text("`intercom daemon --events json` prints one JSON object per line, `intercom ctl events` streams the same, "
                      + "and `[hooks] on_EVENT` runs a program for each. Every event has \(EventName.commonFields); "
                      + "call events then have \(EventName.callFields).")]
        lines += EventName.allCases.map(\.reference).flatMap(entry)
        lines += [".SH \"CONTROL SOCKET\"", Roff.text(ControlCommandReference.intro)]
        lines += ControlCommandReference.all.flatMap(entry)
        lines += [".SH ENVIRONMENT"]
        lines += ReferenceFacts.environment.flatMap { [".TP", "\\fB\(Roff.literal($0.name))\\fR", Roff.text($0.about)] }
        lines += [".SH FILES"]
        lines += ReferenceFacts.files.flatMap { [".TP", "\\fI\(Roff.literal($0.name))\\fR", Roff.text($0.about)] }
        lines += [".SH \"SEE ALSO\"", "\\fBintercom\\-config\\fR(5), \\fBsystemctl\\fR(1), \\fBjournalctl\\fR(1)"]
        return lines.joined(separator: "\n")
    }

    private static func optionItem(_ option: OptionSpec) -> [String] {
        let head = "\\fB\(Roff.literal(option.name))\\fR" + (option.valueName.map { " \\fI\(Roff.literal($0))\\fR" } ?? "")
        return [".TP", head, Roff.text(CommandReference.optionHelp(option))]
    }

    private static func entry(_ item: ReferenceEntry) -> [String] {
        [".TP", "\\fB\(Roff.literal(item.name))\\fR" + (item.fields.isEmpty ? "" : " (\(Roff.text(item.fields)))"), Roff.text(item.about)]
    }
}
