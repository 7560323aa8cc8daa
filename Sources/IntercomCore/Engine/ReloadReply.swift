import IntercomBase

extension JSONValue {
    /// What a `reload` command's reply says waits for a restart, one line each.
    public var notApplied: [String] {
        guard case .array(let lines)? = self["not_applied"] else { return [] }
        return lines.compactMap(\.stringValue)
    }
}
