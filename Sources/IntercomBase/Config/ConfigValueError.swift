/// Why a single value is wrong, without saying where: value parsers are reused
/// outside the file (command-line flags), so the location is added by the caller.
public struct ConfigValueError: Error, Sendable, Equatable {
    public var message: String
    public var fix: String?

    public init(_ message: String, fix: String? = nil) {
        self.message = message
        self.fix = fix
    }
}
