import Foundation

/// Turns an `INIDocument` into an `IntercomConfig`, checking every value against the config
/// table (`ConfigSchema`). Unknown sections and keys become warnings, not errors, so a config
/// written for a newer version still starts an older one.
struct ConfigDecoder {
    let file: String
    let environment: [String: String]
    let timeZone: TimeZone?
    var warnings: [ConfigWarning] = []
    /// Per named kind, lowercased name -> the line that first used it.
    private var names: [String: [String: Int]] = [:]

    /// `on_NAME` for every event: the hook list is the event list (it once missed `call_outgoing`).
    static let hookEvents = Set(EventName.allCases.map(\.rawValue))

    init(file: String, environment: [String: String], timeZone: TimeZone?) {
        self.file = file
        self.environment = environment
        self.timeZone = timeZone
    }

    mutating func decode(_ document: INIDocument, path: String?) throws(ConfigError) -> IntercomConfig {
        var config = IntercomConfig.defaults(environment: environment)
        config.path = path
        var built: [String: any AnyConfigSection] = [:]
        for section in document.sections {
            guard let schema = built[section.kind] ?? ConfigSchema.section(section.kind) else {
                warnings.append(ConfigWarning(file: file, line: section.line,
                                              message: "unknown section \(section.label) (ignored)"))
                continue
            }
            built[section.kind] = schema
            try schema.decode(section, into: &config, decoder: &self)
        }
        return config
    }

    // MARK: helpers

    var expander: PathExpander { PathExpander(environment: environment) }

    var parseContext: ConfigParseContext { ConfigParseContext(expander: expander, zone: timeZone) }

    /// A named section's name (unique case-insensitively, so `intercom open Gate` can never be
    /// ambiguous); nil for a section that must have none.
    mutating func checkName(_ section: INISection, named: Bool) throws(ConfigError) -> String? {
        guard named else {
            try requireNoName(section)
            return nil
        }
        guard let name = section.name, !name.isEmpty else {
            let article = "aeiou".contains(section.kind.first ?? "x") ? "an" : "a"
            throw ConfigError(file: file, line: section.line, section: section.label,
                              message: "\(article) \(section.kind) needs a name",
                              fix: "write it as [\(section.kind) NAME]")
        }
        if let first = names[section.kind]?[name.lowercased()] {
            throw ConfigError(file: file, line: section.line, section: section.label,
                              message: "\(section.kind) name already used on line \(first)",
                              fix: "give each \(section.kind) a different name")
        }
        names[section.kind, default: [:]][name.lowercased()] = section.line
        return name
    }

    func requireNoName(_ section: INISection) throws(ConfigError) {
        guard let name = section.name else { return }
        throw ConfigError(file: file, line: section.line, section: section.label,
                          message: "[\(section.kind)] takes no name",
                          fix: "write it as [\(section.kind)] (only panels and operators are named, e.g. [panel \(name)])")
    }
}
