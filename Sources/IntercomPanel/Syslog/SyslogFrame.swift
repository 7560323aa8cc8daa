import Foundation
import IntercomBase

/// The message of one syslog datagram, as a Beward panel sends it: RFC 3164 (`<PRI>Mmm dd
/// hh:mm:ss HOST APP[PID]: MESSAGE`) or RFC 5424 (`<PRI>1 TIMESTAMP HOST APP PROCID MSGID SD
/// MESSAGE`), the two framings SmartYard-Server's `parseSyslogMessage.js` reads from its panels;
/// text with no header is taken whole. The sender is known by its address, never by HOST.
///
/// Outside text, so cut and cleaned before anything prints, parses or journals it: at most
/// `maximumBytes` of the datagram are read, control characters (C0, DEL, C1, bidirectional) are
/// dropped, runs of spaces kept as they came.
public enum SyslogFrame {
    /// Beward lines are under 200 characters; a datagram is cut here, whatever its size.
    public static let maximumBytes = 1024

    /// The message; nil when nothing printable is left.
    public static func message(of datagram: some Collection<UInt8>) -> String? {
        let text = String(decoding: datagram.prefix(maximumBytes), as: UTF8.self)
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter { !TerminalSafe.isControl($0) }))
        // RFC 5424 lets a UTF-8 message open with a byte order mark.
        let message = stripHeader(clean).trimmingCharacters(in: .whitespaces).drop { $0 == "\u{FEFF}" }
            .trimmingCharacters(in: .whitespaces)
        return message.isEmpty ? nil : message
    }

    /// `text` without its `<PRI>` and the header fields that follow it.
    static func stripHeader(_ text: String) -> Substring {
        var rest = Substring(text)
        guard rest.first == "<", let close = rest.firstIndex(of: ">"),
              rest.distance(from: rest.startIndex, to: close) <= 4,
              rest[rest.index(after: rest.startIndex)..<close].allSatisfy(\.isASCIIDigit) else { return rest }
        rest = rest[rest.index(after: close)...]
        if let version = rest.first, version.isASCIIDigit, rest.dropFirst().first == " " {
            // RFC 5424: VERSION TIMESTAMP HOSTNAME APP-NAME PROCID MSGID, then structured data.
            var fields = rest.dropFirst(2)
            for _ in 0..<5 { fields = fields.drop(while: { $0 != " " }).dropFirst() }
            return dropStructuredData(fields)
        }
        // RFC 3164: "Mmm dd hh:mm:ss" (day space-padded), then HOST and TAG up to ": ".
        let words = rest.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard words.count >= 3, words[2].filter({ $0 == ":" }).count == 2 else { return rest }
        let afterTime = rest[words[2].endIndex...]
        guard let colon = afterTime.range(of: ": ") else { return afterTime }
        return afterTime[colon.upperBound...]
    }

    /// RFC 5424's STRUCTURED-DATA: `-`, or `[…]` elements (a `]` inside quotes escaped as `\]`).
    private static func dropStructuredData(_ text: Substring) -> Substring {
        if text.hasPrefix("- ") || text == "-" { return text.dropFirst(2) }
        var rest = text
        while rest.first == "[" {
            var escaped = false
            guard let close = rest.firstIndex(where: { character in
                defer { escaped = character == "\\" && !escaped }
                return character == "]" && !escaped
            }) else { return rest }
            rest = rest[rest.index(after: close)...]
        }
        return rest.drop(while: { $0 == " " })
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
