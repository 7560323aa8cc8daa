import Foundation

/// The `sip` target's own readings of a SIP head, for checking the screen against: one as belle-sip
/// reads lines (they end at CRLF only; a bare LF or CR is part of the value), one for a reader that
/// also ends a line at a bare LF. In both, a line that starts with a blank continues the line before
/// (whatever that was: a line without a colon is a header of its own, if a broken one), blanks may
/// stand before the colon, and compact names count. Leading CRLFs (keep-alives) are skipped.
enum HeaderLineReader {
    /// SP and HTAB only: belle-sip takes no other blank around a header name.
    private static let blanks = CharacterSet(charactersIn: " \t")

    /// Lowercased full names ("" for a line without a colon) and the bytes of each value, CR and LF
    /// not counted (as the screen counts them).
    static func headers(_ message: [UInt8], bareLFEndsLine: Bool) -> [(name: String, valueBytes: Int)] {
        var start = 0
        while start < message.count, message[start] == 0x0D || message[start] == 0x0A { start += 1 }
        var result: [(name: String, valueBytes: Int)] = []
        for (number, line) in lines(message[start...], bareLFEndsLine: bareLFEndsLine).enumerated() where number > 0 {
            let counted = line.filter { $0 != 0x0D && $0 != 0x0A }.count
            if let first = line.first, first == 0x20 || first == 0x09, !result.isEmpty {
                result[result.count - 1].valueBytes += counted
                continue
            }
            guard let colon = line.firstIndex(of: 0x3A) else {
                result.append(("", counted))
                continue
            }
            let raw = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
                .trimmingCharacters(in: blanks).lowercased()
            let name = ["f": "from", "t": "to", "m": "contact"][raw] ?? raw
            result.append((name, line[line.index(after: colon)...].filter { $0 != 0x0D && $0 != 0x0A }.count))
        }
        return result
    }

    /// The head's lines, up to the blank line before the body.
    private static func lines(_ bytes: ArraySlice<UInt8>, bareLFEndsLine: Bool) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let crlf = bytes[index] == 0x0D && index + 1 < bytes.endIndex && bytes[index + 1] == 0x0A
            let bareLF = bareLFEndsLine && bytes[index] == 0x0A
            guard crlf || bareLF else {
                index += 1
                continue
            }
            if index == lineStart { return lines }  // the blank line: the body follows
            lines.append(bytes[lineStart..<index])
            index += crlf ? 2 : 1
            lineStart = index
        }
        if lineStart < bytes.endIndex { lines.append(bytes[lineStart...]) }
        return lines
    }
}
