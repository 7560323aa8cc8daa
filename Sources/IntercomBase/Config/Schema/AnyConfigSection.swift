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
