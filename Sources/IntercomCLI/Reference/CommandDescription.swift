/// A command as the reference, the man page and the completions show it: its `CommandSpec`
/// without the code. Binaries hand theirs to each other as JSON (`__describe`), so the one that
/// writes the pages sees every command, whichever binary runs it.
public struct CommandDescription: Sendable, Codable, Equatable {
    public var name: String
    public var program: String
    public var summary: String
    public var arguments: String
    public var actions: [CommandAction]
    /// The command's own options, without the common ones.
    public var options: [OptionSpec]
    public var details: String

    public init(_ spec: CommandSpec) {
        name = spec.name
        program = CommandIndex.entry(named: spec.name)?.program.rawValue ?? ""
        summary = spec.summary
        arguments = spec.arguments
        actions = spec.actions
        options = spec.options
        details = spec.details
    }

    public var allOptions: [OptionSpec] { options + CommandSpec.commonOptions }

    /// `intercom NAME [options] ARGUMENTS`.
    public var usage: String {
        "intercom \(name) [options]\(arguments.isEmpty ? "" : " \(arguments)")"
    }

    /// `details` as one paragraph per blank-line-separated block (help wraps them by hand).
    public var detailParagraphs: [String] {
        details.components(separatedBy: "\n\n")
            .map { $0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
            .filter { !$0.isEmpty }
    }
}
