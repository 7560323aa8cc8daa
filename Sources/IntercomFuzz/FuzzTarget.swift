/// The parsers that read bytes we do not control: a config file someone edited by hand,
/// panel HTTP bodies and JPEGs, the alarm stream, terminal answers, control-socket lines,
/// SIP messages from anyone who reaches the SIP port, syslog datagrams from anyone who reaches that one.
/// Each `run` feeds one input through the same calls the program makes and checks the
/// invariants a caller relies on; a broken invariant traps, which the fuzzer reports.
enum FuzzTarget: String, CaseIterable, Sendable {
    case config
    case keyvalue
    case alarm
    case jpeg
    case terminal
    case control
    case sip
    case syslog

    func run(_ input: [UInt8]) {
        switch self {
        case .config: ConfigFuzz.run(input)
        case .keyvalue: KeyValueFuzz.run(input)
        case .alarm: AlarmStreamFuzz.run(input)
        case .jpeg: JPEGFuzz.run(input)
        case .terminal: TerminalAnswersFuzz.run(input)
        case .control: ControlRequestFuzz.run(input)
        case .sip: SIPFuzz.run(input)
        case .syslog: SyslogFuzz.run(input)
        }
    }

    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
