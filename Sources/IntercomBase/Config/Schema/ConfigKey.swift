/// One row of the config table: a key of one section, and everything the program knows about it.
///
/// `Draft` is what the section decodes into (usually the section's public type itself; `[sip]`
/// collects its account keys first), `Value` the section's public type, which SIGHUP compares.
struct ConfigKey<Draft, Value> {
    /// The key as written; for a pattern key, how the reference names it (`on_EVENT`).
    let name: String
    /// Whether an entry's key is this one (a prefix for a pattern key).
    let matches: (String) -> Bool
    let type: String
    let defaultValue: ConfigDefault
    let reload: ConfigReloadKind
    /// The reference's description (Markdown, one paragraph).
    let about: String
    let example: [ConfigExampleLine]
    /// Set for a required key: the fix shown when it is missing. Such a key is decoded before
    /// every other key of the section.
    let whenMissing: String?
    var required: Bool { whenMissing != nil }
    /// Parses one entry into the draft; may add warnings. Errors get their location from the caller.
    let decode: (inout Draft, INIEntry, inout ConfigKeyContext) throws(ConfigValueError) -> Void
    /// Whether a reloaded value differs from the running one (SIGHUP).
    let differs: (Value, Value) -> Bool
    /// Copies the reloaded value into the running one; nil unless `reload == .live`.
    let apply: ((inout Value, Value) -> Void)?

    init(_ name: String, matches: ((String) -> Bool)? = nil, type: String, default defaultValue: ConfigDefault,
         reload: ConfigReloadKind, about: String, example: [ConfigExampleLine], whenMissing: String? = nil,
         decode: @escaping (inout Draft, INIEntry, inout ConfigKeyContext) throws(ConfigValueError) -> Void,
         differs: @escaping (Value, Value) -> Bool, apply: ((inout Value, Value) -> Void)? = nil) {
        self.name = name
        self.matches = matches ?? { $0 == name }
        self.type = type
        self.defaultValue = defaultValue
        self.reload = reload
        self.about = about
        self.example = example
        self.whenMissing = whenMissing
        self.decode = decode
        self.differs = differs
        self.apply = apply
    }

    /// The common row: the parser's result goes to `path` in the draft; SIGHUP compares (and,
    /// for a live key, copies: the path must then be writable) `compare` in the section's value.
    static func field<T, U: Equatable>(
        _ name: String, _ path: WritableKeyPath<Draft, T>, _ parser: ConfigValueParser<T>,
        compare: KeyPath<Value, U>, default defaultValue: ConfigDefault, reload: ConfigReloadKind,
        about: String, example: [ConfigExampleLine], whenMissing: String? = nil
    ) -> ConfigKey {
        ConfigKey(name, type: parser.type, default: defaultValue, reload: reload, about: about,
                  example: example, whenMissing: whenMissing,
                  decode: { draft, entry, context throws(ConfigValueError) in
                      draft[keyPath: path] = try parser.parse(entry.value, context.parse)
                  },
                  differs: { $0[keyPath: compare] != $1[keyPath: compare] },
                  apply: (compare as? WritableKeyPath<Value, U>).flatMap { writable in
                      reload == .live ? { $0[keyPath: writable] = $1[keyPath: writable] } : nil
                  })
    }
}

extension ConfigKey where Draft == Value {
    /// A row whose draft is the section's value: one key path for both.
    static func field<T: Equatable>(
        _ name: String, _ path: WritableKeyPath<Value, T>, _ parser: ConfigValueParser<T>,
        default defaultValue: ConfigDefault, reload: ConfigReloadKind, about: String,
        example: [ConfigExampleLine], whenMissing: String? = nil
    ) -> ConfigKey {
        field(name, path, parser, compare: path, default: defaultValue, reload: reload, about: about,
              example: example, whenMissing: whenMissing)
    }
}
