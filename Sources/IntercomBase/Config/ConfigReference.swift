import Foundation

/// docs/CONFIG.md, made from the config table: every section and key with its type, default,
/// SIGHUP behaviour and description, then the example. `intercom config --reference` prints it,
/// `make docs` writes it, and a test fails when the committed file differs.
public enum ConfigReference {
    /// The opening paragraphs (Markdown inline), shared with the man page.
    public static let introduction: [String] = [
        "`intercom` reads `~/.config/intercom/config.ini`, or the file named by `--config PATH` or `INTERCOM_CONFIG`. "
            + "The format is INI: `[section]` or `[section NAME]`, then `key = value` lines. `#` or `;` after a space "
            + "starts a comment; a value in double quotes keeps a `#`, `;` or edge spaces. A file that holds a password "
            + "must not be readable by others (`chmod 600`).",
        "An unknown section or key is a warning (a config written for a newer version still starts an older one); "
            + "a bad value stops the program with one line naming the file, line, key and section (exit code 65). "
            + "`intercom config --check` loads the file and shows both.",
        "Reloadable: on SIGHUP the daemon applies keys marked *yes* without dropping calls (calls in progress "
            + "keep the values they started with); a change to a key marked *no, restart* is logged as needing a "
            + "restart and left as it was.",
    ]

    /// Without the final newline (a line printer adds it; the file ends with one).
    public static var markdown: String {
        var lines = [
            "# Configuration reference",
            "",
            "<!-- Generated from the config table in Sources/IntercomBase/Config/Schema: run `make docs`"
                + " (or `intercom config --reference > docs/CONFIG.md`); do not edit by hand. -->",
        ]
        for paragraph in introduction { lines += ["", paragraph] }
        for section in ConfigSchema.sections {
            lines += ["", "## [\(section.kind)\(section.named ? " NAME" : "")]", "", section.about, "",
                      "| key | type | default | reloadable |", "|---|---|---|---|"]
            for row in section.rows {
                lines.append("| `\(row.name)` | \(cell(row.type)) | \(cell(row.defaultValue.reference)) | \(row.reload.reference) |")
            }
            lines.append("")
            for row in section.rows {
                lines.append("- `\(row.name)`: \(row.about)")
            }
        }
        lines += ["", "## Example", "", "`intercom config --example` prints:", "", "```ini", ConfigExample.text, "```"]
        return lines.joined(separator: "\n")
    }

    /// A table cell: a `|` would end it.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
