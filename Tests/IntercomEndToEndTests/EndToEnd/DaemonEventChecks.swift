import Foundation
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Checks of the events' envelope, shared by the end-to-end suites.
enum DaemonEventChecks {
    /// `2024-05-01T12:00:00Z`, `…T12:00:00.123+03:00`: RFC 3339 date-time with a zone.
    static let rfc3339 = try! NSRegularExpression(
        pattern: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"#)

    static func isRFC3339(_ text: String) -> Bool {
        rfc3339.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static let callEvents: Set<String> = ["call_incoming", "peephole_frame", "call_answered", "call_ended"]

    /// Every line is a JSON object with `event` and an RFC 3339 `time`; call events carry
    /// `call` (string), `panel` (string or null) and `from` (string).
    static func expectWellFormed(_ daemon: DaemonProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(daemon.badLines.isEmpty, "stdout lines that are not JSON objects: \(daemon.badLines)",
                sourceLocation: sourceLocation)
        for event in daemon.events {
            #expect(!event.name.isEmpty, "no event field: \(event)", sourceLocation: sourceLocation)
            let time = event.string("time") ?? ""
            #expect(isRFC3339(time), "time is not RFC 3339: \(event)", sourceLocation: sourceLocation)
            if callEvents.contains(event.name) {
                #expect(!(event.string("call") ?? "").isEmpty, "no call id: \(event)", sourceLocation: sourceLocation)
                #expect(event.string("panel") != nil || event.isNull("panel"), "no panel field: \(event)",
                        sourceLocation: sourceLocation)
                #expect(event.string("from") != nil, "no from field: \(event)", sourceLocation: sourceLocation)
            }
        }
    }
}

extension DaemonEventChecks {
    /// `from` is the caller's bare SIP URI (`sip:100001@127.0.0.1:5062`), no display name.
    static func expectFrom(_ event: DaemonEvent, startsWith prefix: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let from = event.string("from") ?? ""
        #expect(from.hasPrefix(prefix), "from should be a bare SIP URI starting \(prefix): \(event)",
                sourceLocation: sourceLocation)
    }

    /// A panel call the daemon auto-answers and the panel then hangs up: `call_incoming` from `panel`
    /// (caller URI starting `prefix`), `call_answered` by `auto`, `call_ended` with `remote_hangup`.
    static func expectAutoAnsweredCall(_ daemon: DaemonProcess, panel: String, from prefix: String,
                                       sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> (incoming: DaemonEvent, answered: DaemonEvent, ended: DaemonEvent) {
        let incoming = try await daemon.waitForEvent("call_incoming")
        #expect(incoming.string("panel") == panel, "\(incoming)", sourceLocation: sourceLocation)
        expectFrom(incoming, startsWith: prefix, sourceLocation: sourceLocation)
        let call = try #require(incoming.string("call"), sourceLocation: sourceLocation)
        let answered = try await daemon.waitForEvent("call_answered") { $0.string("call") == call }
        #expect(answered.string("by") == "auto", "\(answered)", sourceLocation: sourceLocation)
        let ended = try await daemon.waitForEvent("call_ended") { $0.string("call") == call }
        #expect(ended.string("reason") == "remote_hangup", "\(ended)", sourceLocation: sourceLocation)
        return (incoming, answered, ended)
    }
}
