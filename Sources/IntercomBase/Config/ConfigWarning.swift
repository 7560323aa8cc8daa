/// A config oddity that does not stop the program (unknown sections and keys),
/// kept so `intercom doctor` and startup can show typos instead of silently
/// ignoring them.
public struct ConfigWarning: CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var key: String?
    public var message: String

    public init(file: String, line: Int, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String { "\(file):\(line): \(message)" }
}
