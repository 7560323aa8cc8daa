/// One `--option` of a command: a flag, or an option that takes a value.
public struct OptionSpec: Sendable, Codable, Equatable {
    public var name: String
    public var valueName: String?
    public var help: String
    /// Values the option accepts; empty = anything.
    public var choices: [String] = []

    public init(name: String, valueName: String?, help: String, choices: [String] = []) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.choices = choices
    }

    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    public static func value(_ name: String, _ valueName: String, _ help: String, choices: [String] = []) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, choices: choices)
    }

    public var usageText: String { valueName.map { "\(name) \($0)" } ?? name }
}
