/// Why the terminal client cannot run.
public enum TUIError: Error, CustomStringConvertible {
    case notATerminal

    public var description: String {
        switch self {
        case .notATerminal: "the terminal client needs a terminal on stdin and stdout; for headless use run 'intercom daemon'"
        }
    }
}
