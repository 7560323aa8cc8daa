/// Where the journal lives: `[journal] path`, else intercom's data directory
/// (`$XDG_DATA_HOME/intercom`, `~/.local/share/intercom` — which the systemd unit makes writable).
public enum JournalLocation {
    public static func directory(_ settings: JournalSettings, environment: [String: String]) -> String {
        settings.path ?? XDGDirectories(environment: environment).dataDirectory
    }

    public static let databaseName = "journal.sqlite3"
    public static let picturesName = "pictures"
}
