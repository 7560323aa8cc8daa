/// One section of the config table: its keys in the order the example and the reference show
/// them, how a section's text becomes its typed value, and where that value lives in
/// `IntercomConfig`.
struct ConfigSection<Draft, Value: Equatable> {
    let kind: String
    /// `[panel NAME]`: a name is required and unique (case-insensitively).
    var named: Bool { if case .named = place { true } else { false } }
    /// The reference's paragraph under the section's heading.
    let about: String
    /// How the section's header looks in the example.
    let example: ConfigExampleLine
    let keys: [ConfigKey<Draft, Value>]
    /// The draft before any key: the defaults (`name` for a named section).
    let start: (_ name: String, _ environment: [String: String]) -> Draft
    /// The value from a finished draft; checks that involve several keys go here.
    let finish: (Draft, INISection, _ file: String) throws(ConfigError) -> Value
    let place: ConfigSectionPlace<Value>

    /// Decodes one section of the file: required keys first, then every entry in file order;
    /// an unknown key is a warning, a bad value an error naming file, line, key and section.
    func decode(_ section: INISection, into config: inout IntercomConfig,
                decoder: inout ConfigDecoder) throws(ConfigError) {
        let name = try decoder.checkName(section, named: named)
        var draft = start(name ?? "", decoder.environment)
        // The decoder's warnings pass through the keys' context, so they stay in file order.
        var context = ConfigKeyContext(parse: decoder.parseContext, file: decoder.file, section: section,
                                       warnings: decoder.warnings)
        defer { decoder.warnings = context.warnings }
        for key in keys {
            guard let fix = key.whenMissing else { continue }
            guard let entry = section.entries.first(where: { key.matches($0.key) }) else {
                throw ConfigError(file: decoder.file, line: section.line, key: key.name, section: section.label,
                                  message: "is missing", fix: fix)
            }
            try decode(entry, with: key, into: &draft, context: &context)
        }
        for entry in section.entries {
            guard let key = keys.first(where: { $0.matches(entry.key) }) else {
                context.warn(entry, "unknown key '\(entry.key)' in \(section.label) (ignored)")
                continue
            }
            if key.required { continue }
            try decode(entry, with: key, into: &draft, context: &context)
        }
        let value = try finish(draft, section, decoder.file)
        switch place {
        case .single(let path): config[keyPath: path] = value
        case .named(let path, _): config[keyPath: path].append(value)
        }
    }

    private func decode(_ entry: INIEntry, with key: ConfigKey<Draft, Value>, into draft: inout Draft,
                        context: inout ConfigKeyContext) throws(ConfigError) {
        do {
            try key.decode(&draft, entry, &context)
        } catch {
            throw ConfigError(file: context.file, line: entry.line, key: entry.key, section: context.section.label,
                              message: error.message, fix: error.fix)
        }
    }
}
