import Foundation
import IntercomBase

/// The start line and headers of one SIP message, as far as the phone thread's screen needs
/// them: enough to recognise a new INVITE and to answer it without belle-sip.
/// Compact header names (RFC 3261 §7.3.3) are expanded; folded lines are joined.
struct SIPRequestHead {
    let startLine: String
    /// Lowercased full names and values, in message order.
    let headers: [(name: String, value: String)]

    private static let compact: [String: String] = [
        "f": "from", "t": "to", "m": "contact", "i": "call-id", "v": "via", "l": "content-length",
    ]

    /// Nil when the bytes are no SIP message head (no start line, no blank line after the headers).
    /// CR and LF before the start line are skipped, as belle-sip skips them.
    init?<Bytes: Collection>(_ message: Bytes) where Bytes.Element == UInt8 {
        let bytes = message.drop { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
        guard let end = Self.endOfHead(bytes) else { return nil }
        let text = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first, !first.isEmpty else { return nil }
        startLine = first
        var parsed: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            if let last = parsed.last, line.first == " " || line.first == "\t" {
                parsed[parsed.count - 1].value = last.value + " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let raw = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            parsed.append((Self.compact[raw] ?? raw, value))
        }
        headers = parsed
    }

    /// The request method ("INVITE"), nil for a response.
    var method: String? {
        guard !startLine.hasPrefix("SIP/") else { return nil }
        return startLine.split(separator: " ").first.map(String.init)
    }

    func first(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    func all(_ name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }

    /// The top Via's branch parameter, which names the transaction.
    var branch: String? {
        guard let via = first("via")?.split(separator: ",").first else { return nil }
        for parameter in via.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.first?.trimmingCharacters(in: .whitespaces).lowercased() == "branch", pair.count == 2 {
                return pair[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// Whether the To header carries a tag: an in-dialog request (re-INVITE, BYE), not a new call.
    var hasToTag: Bool {
        guard let to = first("to") else { return false }
        let afterURI = to.lastIndex(of: ">").map { to[$0...] } ?? Substring(to)
        return afterURI.lowercased().contains(";tag=")
    }

    /// The host of the first Contact's URI (where a caller really is), nil when there is none or it is `*`.
    var contactHost: String? {
        guard let contact = first("contact"), contact != "*" else { return nil }
        return SIPURI(parsing: contact)?.host
    }

    private static func endOfHead<Bytes: Collection>(_ bytes: Bytes) -> Bytes.Index? where Bytes.Element == UInt8 {
        var index = bytes.startIndex
        var previousNewline = false
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                if previousNewline { return index }
                previousNewline = true
            } else if byte != UInt8(ascii: "\r") {
                previousNewline = false
            }
            index = bytes.index(after: index)
        }
        return nil
    }
}
