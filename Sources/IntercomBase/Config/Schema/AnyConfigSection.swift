/// A section of the table with its types erased, so the decoder, the example, the reference and
/// SIGHUP can walk all sections in one list.
protocol AnyConfigSection {
    var kind: String { get }
    var named: Bool { get }
    var about: String { get }
    var example: ConfigExampleLine { get }
    var rows: [ConfigKeyRow] { get }
    func decode(_ section: INISection, into config: inout IntercomConfig, decoder: inout ConfigDecoder) throws(ConfigError)
    func reload(running: inout IntercomConfig, reloaded: IntercomConfig, notApplied: inout [String])
}

/// What the example and the reference show of a key.
struct ConfigKeyRow {
    let name: String
    let type: String
    let defaultValue: ConfigDefault
    let reload: ConfigReloadKind
    let about: String
    let example: [ConfigExampleLine]
    /// Required in its section (a missing one is an error).
    let required: Bool
    /// A live key that SIGHUP can copy (a test checks that every live key can).
    let appliesLive: Bool
}

extension ConfigSection: AnyConfigSection {
    var rows: [ConfigKeyRow] {
        keys.map {
            ConfigKeyRow(name: $0.name, type: $0.type, defaultValue: $0.defaultValue, reload: $0.reload,
                         about: $0.about, example: $0.example, required: $0.required, appliesLive: $0.apply != nil)
        }
    }
}
