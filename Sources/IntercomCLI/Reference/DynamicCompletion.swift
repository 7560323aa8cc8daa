import IntercomBase

/// `intercom __complete panels|doors|cameras|operators`: the names a shell completes, from the
/// user's config (no network: an operator's doors and cameras need its API, so only its name is
/// offered). Prints nothing, with exit 0, when the config cannot be read: a completion must
/// never spill errors into the command line being typed.
public enum DynamicCompletion {
    public static let command = "__complete"

    public static func run(_ argv: [String], environment: [String: String]) -> Int32 {
        var config: String?
        var kind: CompletionValue.DynamicKind?
        var index = 0
        while index < argv.count {
            let word = argv[index]
            if word == "--config", index + 1 < argv.count {
                config = argv[index + 1]
                index += 2
                continue
            }
            if word.hasPrefix("--config=") { config = String(word.dropFirst("--config=".count)) }
            else if let named = CompletionValue.DynamicKind(rawValue: word) { kind = named }
            index += 1
        }
        guard let kind else {
            return Console.fail("__complete takes panels, doors, cameras or operators", code: ExitCode.usage)
        }
        guard let loaded = try? ConfigLoader.load(explicit: config, environment: environment) else { return ExitCode.ok }
        for name in names(kind, loaded.config) { Console.out(name) }
        return ExitCode.ok
    }

    static func names(_ kind: CompletionValue.DynamicKind, _ config: IntercomConfig) -> [String] {
        let panels = config.panels.map(\.name)
        switch kind {
        case .panels, .cameras: return panels
        case .doors: return panels + panels.flatMap { ["\($0):alt", "\($0):light"] }
        case .operators: return config.operators.map(\.name)
        }
    }
}
