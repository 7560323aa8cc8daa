import Foundation

public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug, info, notice, warning, error

    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "notice": self = .notice
        case "warning", "warn": self = .warning
        case "error": self = .error
        default: return nil
        }
    }

    public var name: String { String(describing: self) }
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    /// syslog priority, which journald reads from a `<N>` line prefix.
    var syslogPriority: Int {
        switch self {
        case .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        }
    }
}

/// Writes one line per message to stderr. Under journald (JOURNAL_STREAM set) lines carry
/// a `<N>` priority prefix so `journalctl -p` filters them; on a terminal they read `warning: …`.
public struct Logger: Sendable {
    public var minimumLevel: LogLevel
    public var journald: Bool

    public init(minimumLevel: LogLevel = .notice, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.minimumLevel = minimumLevel
        self.journald = environment["JOURNAL_STREAM"] != nil
    }

    public static let silent = Logger(minimumLevel: .error, environment: [:])

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        // A full disk or a closed stderr drops the line; calls and the journal go on.
        StandardStream.error.write(Array(line(level, message()).utf8))
    }

    /// The line `log` writes. One message, one line: log lines quote panels, brokers, FFmpeg and
    /// curl, and a newline or an escape sequence in them must neither forge a journald record nor
    /// reach a terminal (`TerminalSafe.escape`).
    public func line(_ level: LogLevel, _ message: String) -> String {
        let text = TerminalSafe.escape(message)
        return journald ? "<\(level.syslogPriority)>\(text)\n" : "\(level.name): \(text)\n"
    }

    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
