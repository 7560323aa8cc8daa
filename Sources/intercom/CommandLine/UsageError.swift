/// A command line that does not fit the command table: exit 64 with one line saying what to type.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var command: String?
    var description: String {
        let help = command.map { "intercom \($0) --help" } ?? "intercom --help"
        return "\(message); see '\(help)'"
    }
}
