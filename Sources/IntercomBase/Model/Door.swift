/// A door or output to pulse; each family maps it to its own CGI call.
public enum Door: Sendable, Equatable, CustomStringConvertible {
    case main
    case alt
    /// The third output, wired to a light or a third lock on some installs.
    case light
    /// A relay by number, as DS `alarmout_cgi` counts them (0 = main).
    case output(Int)

    /// Parses the CLI/config spelling: main, alt, light or a number.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "main": self = .main
        case "alt": self = .alt
        case "light": self = .light
        default:
            guard let n = Int(text), n >= 0 else { return nil }
            self = .output(n)
        }
    }

    public var description: String {
        switch self {
        case .main: return "main"
        case .alt: return "alt"
        case .light: return "light"
        case .output(let n): return String(n)
        }
    }

    /// The relay number on DS panels.
    package var dsOutput: Int {
        switch self {
        case .main: return 0
        case .alt: return 1
        case .light: return 2
        case .output(let n): return n
        }
    }
}
