import Foundation
import IntercomBase
import IntercomOperator

/// `intercom inbox [OPERATOR] [--unread] [--json]`: the operator's messages to the subscriber as
/// text with their links (`inbox/inbox`, which marks them all read), or only how many are unread
/// (`inbox/unreaded`, which marks nothing).
public enum InboxCommand {
    public static let spec = CommandSpec(
        name: "inbox",
        arguments: "[OPERATOR]",
        maxPositionals: 1,
        options: [
            .flag("--unread", "print how many messages are unread, marking none read"),
            .flag("--json", "messages: one JSON array (operator, day, time, text, links); --unread: one object"),
        ],
        details: """
            The operator's server answers its messages only all at once, and marks them all read as
            it does (what its app shows); --unread asks for the count alone and leaves them unread.
            Messages are printed oldest first, with the day and time as the server writes them (its
            zone), their text, and each link on a line of its own.
            """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let args = invocation.arguments
        let op: OperatorConfig
        switch OperatorSelection.pick(invocation, name: args.positionals.first) {
        case .failure(let failure): return failure.report()
        case .success(let found): op = found
        }
        let json = args.has("--json")
        do {
            let client = try OperatorSelection.client(op, environment: invocation.environment)
            if args.has("--unread") {
                let count = try await client.unreadMessages()
                Console.out(json ? JSONValue.object([("operator", .string(op.name)), ("unread", .integer(count))]).encoded
                                 : TerminalSafe.escape("\(op.name): \(count) unread"))
                return ExitCode.ok
            }
            let messages = try await client.inbox()
            if json {
                Console.out(JSONValue.array(messages.map { message in
                    guard case .object(let fields) = message.json else { return message.json }
                    return .object([("operator", .string(op.name))] + fields)
                }).encoded)
                return ExitCode.ok
            }
            guard !messages.isEmpty else {
                Console.out(TerminalSafe.escape("\(op.name): no messages"))
                return ExitCode.ok
            }
            for (index, message) in messages.enumerated() {
                if index > 0 { Console.out("") }
                Console.out(TerminalSafe.escape("\(op.name), \(message.day) \(message.time)"))
                for line in message.text.split(separator: "\n", omittingEmptySubsequences: false) {
                    Console.out("  " + TerminalSafe.escape(String(line)))
                }
                for link in message.links { Console.out("  link: " + TerminalSafe.escape(link)) }
            }
            return ExitCode.ok
        } catch {
            return error.commandError.report()
        }
    }
}
