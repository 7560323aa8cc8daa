/// One `key = value` line. The line number travels with the value so every
/// later validation error can point at the exact line.
public struct INIEntry: Sendable, Equatable {
    public var key: String
    public var value: String
    public var line: Int
    /// Whether the value was written in double quotes; quoting is how a user
    /// asks for `#`, `;` or edge spaces to be taken literally.
    public var quoted: Bool

    public init(key: String, value: String, line: Int, quoted: Bool = false) {
        self.key = key
        self.value = value
        self.line = line
        self.quoted = quoted
    }
}
