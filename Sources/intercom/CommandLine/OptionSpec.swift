/// One `--option` of a command: a flag, or an option that takes a value.
struct OptionSpec: Sendable {
    var name: String
    var valueName: String?
    var help: String
    /// Values the option accepts; empty = anything.
    var choices: [String] = []

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    static func value(_ name: String, _ valueName: String, _ help: String, choices: [String] = []) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, choices: choices)
    }

    var usageText: String { valueName.map { "\(name) \($0)" } ?? name }
}
