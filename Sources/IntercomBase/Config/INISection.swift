/// A `[kind]` or `[kind name]` block with its entries in file order.
public struct INISection: Sendable, Equatable {
    public var kind: String
    public var name: String?
    public var line: Int
    public var entries: [INIEntry]

    public init(kind: String, name: String? = nil, line: Int, entries: [INIEntry] = []) {
        self.kind = kind
        self.name = name
        self.line = line
        self.entries = entries
    }

    /// The header as the user wrote it (normalised spacing), for messages.
    public var label: String {
        if let name { return "[\(kind) \(name)]" }
        return "[\(kind)]"
    }

    public func entry(_ key: String) -> INIEntry? {
        entries.first { $0.key == key }
    }
}
