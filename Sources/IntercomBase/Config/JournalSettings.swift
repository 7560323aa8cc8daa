/// The `[journal]` section.
public struct JournalSettings: Sendable, Equatable {
    /// Entries and pictures older than this many days are removed.
    public var keepDays: Int
    /// Size cap of the journal directory in megabytes.
    public var maxMB: Int
    /// Journal directory; nil means the XDG data directory.
    public var path: String?

    public init(keepDays: Int = 90, maxMB: Int = 500, path: String? = nil) {
        self.keepDays = keepDays
        self.maxMB = maxMB
        self.path = path
    }

    public static let defaults = JournalSettings()
}
