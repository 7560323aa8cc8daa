/// The config schema as one table: every section and key with its parser, default, SIGHUP
/// behaviour, example lines and reference text. The decoder (`ConfigDecoder`), the example
/// (`ConfigExample`), SIGHUP (`ConfigReloadPlan`) and docs/CONFIG.md (`ConfigReference`) are all
/// made from it, so a key cannot be known to one and missing from another.
enum ConfigSchema {
    /// In the order of the example and the reference.
    static var sections: [any AnyConfigSection] { kinds.compactMap(section) }

    /// Every section's kind, in that order.
    static let kinds = ["sip", "audio", "panel", "operator", "directory", "mqtt", "notify", "syslog", "daemon", "journal", "site", "hooks"]

    /// One section's table, built alone: building all ten (their keys' key paths and closures) was
    /// a third of a light command's config reading, and a file names only a few.
    static func section(_ kind: String) -> (any AnyConfigSection)? {
        switch kind {
        case "sip": sip
        case "audio": audio
        case "panel": panel
        case "operator": `operator`
        case "directory": directory
        case "mqtt": mqtt
        case "notify": notify
        case "syslog": syslog
        case "daemon": daemon
        case "journal": journal
        case "site": site
        case "hooks": hooks
        default: nil
        }
    }

    /// The example's opening comment.
    static let examplePreamble = [
        "# intercom configuration — ~/.config/intercom/config.ini",
        "# INI: [section] or [section name], key = value. '#' or ';' after a space starts",
        "# a comment; put a value in double quotes to keep a '#', ';' or edge spaces in it.",
        "# If this file holds a password it must not be readable by others: chmod 600 it.",
    ]
}
