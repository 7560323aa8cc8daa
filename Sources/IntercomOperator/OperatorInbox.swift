import Foundation
import IntercomBase

/// A message of the operator's inbox, as text: `inbox/inbox` hands the app a finished HTML page,
/// so the day, the time, the words and the links are read back out of it.
public struct InboxMessage: Sendable, Equatable {
    /// The day as the server wrote it (a long Russian date, "2 декабря 2026 г."), not parsed.
    public var day: String
    /// `HH:MM` in the server's zone.
    public var time: String
    public var text: String
    /// The message's links (`https://…`), in order, each once; phone links are left in the text.
    public var links: [String]

    public init(day: String, time: String, text: String, links: [String]) {
        self.day = day
        self.time = time
        self.text = text
        self.links = links
    }

    public var json: JSONValue {
        .object([("day", .string(day)), ("time", .string(time)), ("text", .string(text)),
                 ("links", .array(links.map { .string($0) }))])
    }
}

/// Reads `inbox/inbox`'s page (`inbox.php`: a `span.inbox-date` before each day's first message,
/// each message a `div.inbox-message-content` with its HTML and a `span.inbox-message-time`).
public enum InboxPage {
    /// The messages, oldest first (the page lists the newest first).
    public static func messages(_ html: String) -> [InboxMessage] {
        var messages: [InboxMessage] = []
        var day = ""
        var rest = html[...]
        let contentMark = "inbox-message-content\">"
        let timeMark = "<span class=\"inbox-message-time\">"
        while let content = rest.range(of: contentMark) {
            if let date = lastDate(in: rest[..<content.lowerBound]) { day = date }
            let body = rest[content.upperBound...]
            guard let timeStart = body.range(of: timeMark) else { break }
            let afterTime = body[timeStart.upperBound...]
            let timeEnd = afterTime.range(of: "</span>")?.lowerBound ?? afterTime.endIndex
            let html = String(body[..<timeStart.lowerBound])
            messages.append(InboxMessage(day: day, time: text(String(afterTime[..<timeEnd])),
                                         text: text(html), links: links(html)))
            rest = afterTime[timeEnd...]
        }
        return messages.reversed()
    }

    /// The text of the last `span.inbox-date` in `html`.
    private static func lastDate(in html: Substring) -> String? {
        let mark = "<span class=\"inbox-date\">"
        guard let start = html.range(of: mark, options: .backwards) else { return nil }
        let after = html[start.upperBound...]
        return text(String(after[..<(after.range(of: "</span>")?.lowerBound ?? after.endIndex)]))
    }

    /// Every `href` but `tel:` ones, in order, each once.
    static func links(_ html: String) -> [String] {
        var found: [String] = []
        var rest = html[...]
        while let href = rest.range(of: "href=") {
            var value = rest[href.upperBound...]
            guard let quote = value.first, quote == "\"" || quote == "'" else { rest = value; continue }
            value = value.dropFirst()
            let end = value.firstIndex(of: quote) ?? value.endIndex
            let link = decode(String(value[..<end]))
            let lower = link.lowercased()
            if !lower.hasPrefix("tel:"), !link.isEmpty, !found.contains(link) { found.append(link) }
            rest = value[end...]
        }
        return found
    }

    /// The HTML as plain text: line breaks and paragraphs as new lines, tags dropped, entities decoded.
    static func text(_ html: String) -> String {
        var out = ""
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            let close = rest[open...].firstIndex(of: ">") ?? rest.endIndex
            let tag = rest[open..<close].lowercased()
            if tag.hasPrefix("<br") || tag.hasPrefix("</p") || tag.hasPrefix("<p") { out += "\n" }
            rest = close < rest.endIndex ? rest[rest.index(after: close)...] : rest[close...]
            // nl2br keeps the source's own newline after each <br />: one line break, not two.
            if tag.hasPrefix("<br") {
                if rest.hasPrefix("\r\n") { rest = rest.dropFirst(2) } else if rest.hasPrefix("\n") { rest = rest.dropFirst() }
            }
        }
        out += rest
        let lines = decode(out).replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var kept: [String] = []
        for line in lines where !(line.isEmpty && (kept.last?.isEmpty ?? true)) { kept.append(line) }
        while kept.last?.isEmpty == true { kept.removeLast() }
        return kept.joined(separator: "\n")
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#039;`, `&nbsp;` and numeric references.
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let tail = rest[amp...]
            guard let semi = tail.prefix(10).firstIndex(of: ";") else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let name = String(tail[tail.index(after: amp)..<semi])
            if let char = entity(name) {
                out.append(char)
            } else {
                out += tail[amp...semi]
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }

    private static func entity(_ name: String) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }
}

/// The inbox: `inbox/unreaded` (a count, nothing marked) and `inbox/inbox` (every message, and
/// the server marks them all read).
extension OperatorClient {
    /// Unread messages (`count`); the server's `chat` flag is always 0 and not read.
    public func unreadMessages() async throws(OperatorError) -> Int {
        guard let count = try await call("inbox/unreaded")?["count"]?.looseInt else {
            throw shape("the unread count (no count)")
        }
        return max(0, count)
    }

    /// Every message, oldest first. The server marks them all read as it answers.
    public func inbox() async throws(OperatorError) -> [InboxMessage] {
        guard let data = try await call("inbox/inbox") else { return [] }
        guard let page = data.text("code") else { throw shape("the inbox (no code)") }
        return InboxPage.messages(page)
    }
}
