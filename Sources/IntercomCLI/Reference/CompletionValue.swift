import Foundation

/// What a shell completes for an argument or an option's value, read from how help names it:
/// PANEL → the config's panels, ID → door ids, OPERATOR → operators, CAMERA → cameras,
/// `on|off` → those words, PATH or FILE → files. Commands added later complete by the same rule.
public enum CompletionValue: Equatable, Sendable {
    case none
    case words([String])
    case files
    /// Asked of `intercom __complete KIND` at completion time (the config can change any time).
    case dynamic(DynamicKind)

    public enum DynamicKind: String, CaseIterable, Sendable {
        case panels, doors, cameras, operators
    }

    public static func forArgument(_ placeholder: String) -> CompletionValue {
        let bare = placeholder.trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        if bare.contains("ID") { return .dynamic(.doors) }
        if bare.contains("PANEL") { return .dynamic(.panels) }
        if bare.contains("CAMERA") { return .dynamic(.cameras) }
        if bare.contains("OPERATOR") { return .dynamic(.operators) }
        if bare.contains("PATH") || bare.contains("FILE") { return .files }
        let alternatives = bare.split(separator: "|").map(String.init)
        if alternatives.count > 1, alternatives.allSatisfy({ $0 == $0.lowercased() && !$0.contains("=") }) {
            return .words(alternatives)
        }
        return .none
    }

    public static func forOption(_ option: OptionSpec) -> CompletionValue {
        guard let valueName = option.valueName else { return .none }
        if !option.choices.isEmpty { return .words(option.choices) }
        if valueName == "DOOR" { return .words(["main", "alt", "light"]) }
        return forArgument(valueName)
    }

    /// The placeholders of an `arguments` text, one per positional: "[OPERATOR] PHONE" → 2.
    public static func placeholders(_ arguments: String) -> [String] {
        arguments.split(separator: " ").map(String.init).filter { !$0.hasPrefix("...") && $0 != "...]" }
    }
}
