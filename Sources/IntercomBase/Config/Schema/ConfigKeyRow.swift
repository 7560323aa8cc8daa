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
