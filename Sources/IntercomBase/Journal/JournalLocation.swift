/// Where the journal lives: `[journal] path`, else `$XDG_DATA_HOME/intercom`, else
/// `~/.local/share/intercom` (the directory the systemd unit makes writable).
public enum JournalLocation {
    public static func directory(_ settings: JournalSettings, environment: [String: String]) -> String {
        if let path = settings.path { return path }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/intercom" }
        return (environment["HOME"] ?? "/tmp") + "/.local/share/intercom"
    }

    public static let databaseName = "journal.sqlite3"
    public static let picturesName = "pictures"
}
