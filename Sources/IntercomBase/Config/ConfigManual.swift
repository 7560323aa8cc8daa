/// intercom-config(5), made from the config table like docs/CONFIG.md: `intercom config --man`
/// prints it, `make install` installs it, and a test renders it with man(1).
public enum ConfigManual {
    public static var roff: String {
        var lines = [
            ".\\\" Generated from the config table (intercom config --man); do not edit.",
            ".TH INTERCOM\\-CONFIG 5 \"\" \"intercom \(IntercomVersion.string)\" \"File Formats\"",
            ".SH NAME",
            "intercom\\-config \\- configuration file of intercom, the terminal SIP intercom client",
            ".SH SYNOPSIS",
            "\\fI~/.config/intercom/config.ini\\fR",
            ".SH DESCRIPTION",
        ]
        for (index, paragraph) in ConfigReference.introduction.enumerated() {
            if index > 0 { lines.append(".PP") }
            lines.append(Roff.text(paragraph))
        }
        for section in ConfigSchema.sections {
            lines += [".SH \"THE [\(section.kind)\(section.named ? " NAME" : "")] SECTION\"",
                      Roff.text(section.about)]
            for row in section.rows {
                lines += [".TP", "\\fB\(Roff.literal(row.name))\\fR (\(Roff.text(row.type)))",
                          Roff.text(row.about),
                          "Default: \(Roff.text(row.defaultValue.reference)). Reloadable: \(Roff.text(row.reload.reference)).",
                          row.required ? "Required." : ""]
                    .filter { !$0.isEmpty }
            }
        }
        lines += [".SH EXAMPLE", "\\fBintercom config \\-\\-example\\fR prints:", ".PP", ".nf", ".RS 4"]
        lines += ConfigExample.text.split(separator: "\n", omittingEmptySubsequences: false).map { Roff.literal(String($0)) }
        lines += [".RE", ".fi",
                  ".SH FILES",
                  ".TP", "\\fI~/.config/intercom/config.ini\\fR", "The default file (\\fI$XDG_CONFIG_HOME/intercom/config.ini\\fR).",
                  ".SH SEE ALSO", "\\fBintercom\\fR(1)"]
        return lines.joined(separator: "\n")
    }
}
