import Foundation
import IntercomBase

/// The inbox as `inbox/*.php` serves it: `unreaded` counts without marking, `inbox` answers every
/// message as one HTML page (newest first, a date line before each day) and marks them all read,
/// `readed` marks one (`messageId`) or all.
extension OperatorService {
    func unread(_ caller: Caller) -> OperatorReply {
        let count = state.withLock { s in s.messages.filter { $0.phone == caller.phone && !$0.read }.count }
        return OperatorEnvelope.ok(.object([("count", .integer(count)), ("chat", .integer(0))]))
    }

    func inbox(_ caller: Caller) -> OperatorReply {
        let messages: [OperatorState.Message] = state.withLock { s in
            let mine = s.messages.filter { $0.phone == caller.phone }
            for index in s.messages.indices where s.messages[index].phone == caller.phone { s.messages[index].read = true }
            return mine
        }
        let days = DateFormatter()
        days.locale = Locale(identifier: "ru_RU")
        days.timeZone = clock.timeZone
        days.dateStyle = .long
        days.timeStyle = .none
        var html = ""
        var lastDay = ""
        for message in messages.sorted(by: { $0.date > $1.date }) {
            let day = days.string(from: message.date)
            if day != lastDay {
                lastDay = day
                html += "<span class=\"inbox-date\">\(day)</span><div class=\"inbox-message-primary\">"
                    + "<i class=\"inbox-message-icon icon-avatar\"></i><div class=\"inbox-message-content\">"
            } else {
                html += "<div class=\"inbox-message-secondary\"><div class=\"inbox-message-content\">"
            }
            html += "<p><p>" + Self.markup(message.text) + "</p></p>"
            html += "<span class=\"inbox-message-time\">\(String(clock.time(message.date).prefix(5)))</span></div></div>"
        }
        let page = "<!DOCTYPE html>\n<html lang=\"ru\">\n<body>\n    <div class=\"inbox-block\">\(html)</div>\n</body>\n\n</html>"
        return OperatorEnvelope.ok(.object([("basePath", .string(baseURL + "/")), ("code", .string(page))]))
    }

    func markRead(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        let id = body["messageId"]?.loose.flatMap { Int($0) }
        state.withLock { s in
            for index in s.messages.indices where s.messages[index].phone == caller.phone
                && (id == nil || s.messages[index].id == id) {
                s.messages[index].read = true
            }
        }
        return OperatorEnvelope.noContent
    }

    /// What nl2br, Parsedown and the phone links make of a message: its text escaped, `<br />` at
    /// each line end, bare URLs as `<a target="_blank" href=…>`, phone numbers as `tel:` links.
    static func markup(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let words = escaped.components(separatedBy: "\n").map { line in
            line.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
                if word.hasPrefix("https://") || word.hasPrefix("http://") {
                    return "<a target=\"_blank\" href=\"\(word)\">\(word)</a>"
                }
                if word.count == 11, word.allSatisfy(\.isNumber), word.first == "7" || word.first == "8" {
                    return "<a href='tel:\(word)'>\(word)</a>"
                }
                return String(word)
            }.joined(separator: " ")
        }
        return words.joined(separator: "<br />\n")
    }
}
