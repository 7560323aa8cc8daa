/// A command line checked against its command's options.
public struct ParsedArguments: Sendable {
    public var values: [String: String] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []

    public init() {}

    public func value(_ name: String) -> String? { values[name] }
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Reads `tokens` (after the command name) against `options`; `--opt=value` and `--opt value` both work.
    public static func parse(_ tokens: [String], options: [OptionSpec], maxPositionals: Int, command: String) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if onlyPositionals || !token.hasPrefix("-") || token == "-" {
                parsed.positionals.append(token)
                continue
            }
            if token == "--" {
                onlyPositionals = true
                continue
            }
            var name = token
            var inline: String?
            if let eq = token.firstIndex(of: "=") {
                name = String(token[..<eq])
                inline = String(token[token.index(after: eq)...])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError(message: "unknown option '\(name)' for 'intercom \(command)'", command: command)
            }
            if spec.valueName == nil {
                if inline != nil { throw UsageError(message: "option '\(name)' takes no value", command: command) }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < tokens.count else {
                    throw UsageError(message: "option '\(name)' needs a value (\(spec.valueName ?? "VALUE"))", command: command)
                }
                value = tokens[index]
                index += 1
            }
            if !spec.choices.isEmpty && !spec.choices.contains(value) {
                throw UsageError(message: "option '\(name)' takes \(spec.choices.joined(separator: "|")), not '\(value)'", command: command)
            }
            parsed.values[name] = value
        }
        if parsed.positionals.count > maxPositionals {
            let extra = parsed.positionals[maxPositionals]
            throw UsageError(message: "unexpected argument '\(extra)' for 'intercom \(command)'", command: command)
        }
        return parsed
    }
}
