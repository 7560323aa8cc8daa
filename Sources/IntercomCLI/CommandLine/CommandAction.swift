/// A word a command takes as its first argument (`intercom ctl mute`), with what may follow it.
/// Help, the reference, the man page and the completions are made from the list.
public struct CommandAction: Sendable, Codable, Equatable {
    public var name: String
    /// What follows the word, as shown in help, e.g. "[CALL]" or "[on|off]".
    public var arguments: String

    public init(_ name: String, _ arguments: String = "") {
        self.name = name
        self.arguments = arguments
    }

    public var usageText: String { arguments.isEmpty ? name : "\(name) \(arguments)" }
}
