/// A command line that does not fit the command table: exit 64 with one line saying what to type.
public struct UsageError: Error, CustomStringConvertible {
    public var message: String
    public var command: String?

    public init(message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
    public var description: String {
        let help = command.map { "intercom \($0) --help" } ?? "intercom --help"
        return "\(message); see '\(help)'"
    }
}
