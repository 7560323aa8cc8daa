import IntercomBase
import IntercomPanel

/// A datagram on the `[syslog]` socket, from anyone who reaches it: framed (`SyslogFrame`), then read
/// (`BewardSyslogLine`). What comes out is one clean line, and a key or flat is what its name says.
enum SyslogFuzz {
    static func run(_ input: [UInt8]) {
        guard let message = SyslogFrame.message(of: input) else { return }
        precondition(!message.unicodeScalars.contains(where: TerminalSafe.isControl), "a control character got through")
        // Each byte read decodes to at most one scalar of at most 3 bytes (U+FFFD for a bad one).
        precondition(message.utf8.count <= 3 * SyslogFrame.maximumBytes, "the datagram was not cut")
        switch BewardSyslogLine.parse(message) {
        case .doorOpened(_, _, let key, let flat)?:
            if let key { precondition(!key.isEmpty && key.count <= 20 && key.allSatisfy(\.isHexDigit), "key '\(key)'") }
            if let flat { precondition(flat.allSatisfy(\.isNumber) && flat.count <= 9, "flat '\(flat)'") }
        case .calling(let flat, _)?:
            precondition(!flat.isEmpty && flat.count <= 32 && flat.allSatisfy { $0.isASCII && ($0.isNumber || $0.isLetter) }, "flat '\(flat)'")
        case .answeredOnHandset(let flat)?, .callsDone(let flat)?:
            precondition(flat.allSatisfy(\.isNumber) && flat.count <= 9, "flat '\(flat)'")
        case nil:
            break
        }
    }
}
