/// What a key's decoder sees besides its entry: parsing needs, and where warnings go.
struct ConfigKeyContext {
    let parse: ConfigParseContext
    let file: String
    let section: INISection
    var warnings: [ConfigWarning] = []

    mutating func warn(_ entry: INIEntry, _ message: String) {
        warnings.append(ConfigWarning(file: file, line: entry.line, key: entry.key, message: message))
    }
}
