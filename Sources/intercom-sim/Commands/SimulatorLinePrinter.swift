import Foundation
import IntercomBase
import IntercomCLI
import IntercomSimulator

/// Renders the simulator's happenings as stable text lines or JSON lines.
/// With `panel` set (one of `--count N`), each line starts `NAME: ` and each object has "panel".
struct LinePrinter: Sendable {
    var json: Bool
    var panel: String? = nil

    /// The same printer for one member of a fleet.
    func member(_ name: String) -> LinePrinter { LinePrinter(json: json, panel: name) }

    private func emit(_ text: String, _ event: String, _ fields: [(String, JSONValue)]) {
        if json {
            let all: [(String, JSONValue)] = [("event", .string(event)), ("time", .string(RFC3339.string(Date())))]
                + (panel.map { [("panel", JSONValue.string($0))] } ?? []) + fields
            Console.out(JSONValue.object(all).encoded)
        } else {
            Console.out(panel.map { "\($0): \(text)" } ?? text)
        }
    }

    /// `--count N`: one line per panel with everything a `[panel NAME]` section needs.
    func fleetPanel(name: String, url: String, listen: String, from: String, rtsp: String?) {
        emit("panel \(name) http \(url) sip \(listen) from \(from)" + (rtsp.map { " rtsp \($0)" } ?? ""), "panel",
             [("name", .string(name)), ("url", .string(url)), ("listen", .string(listen)), ("from", .string(from)),
              ("rtsp", .optional(rtsp))])
    }

    /// `--count N`: every panel is up (after the N `panel` lines).
    func fleetReady(count: Int) {
        emit("panels ready: \(count)", "panels_ready", [("count", .number(Double(count)))])
    }

    func httpListening(url: String, user: String, auth: String) {
        emit("http listening on \(url) (user \(user), \(auth))", "http_listening",
             [("url", .string(url)), ("user", .string(user)), ("auth", .string(auth))])
    }

    func rtspListening(url: String, subURL: String) {
        emit("rtsp listening on \(url) (sub \(subURL))", "rtsp_listening",
             [("url", .string(url)), ("sub_url", .string(subURL))])
    }

    func sipListening(listen: String, from: String) {
        emit("sip listening on \(listen) (calls as \(from))", "sip_listening",
             [("listen", .string(listen)), ("from", .string(from))])
    }

    func stopped() { emit("stopped", "stopped", []) }

    func error(_ message: String) {
        if json {
            emit("", EventName.error.rawValue, [("message", .string(message))])
        } else {
            Console.error("intercom: \(message)")
        }
    }

    func print(_ event: SimulatedPanelEvent) {
        switch event {
        case .calling(let id, let to):
            emit("calling \(to)", "calling", [("call", .string(id.rawValue)), ("to", .string(to))])
        case .ringing(let id):
            emit("ringing", "ringing", [("call", .string(id.rawValue))])
        case .incoming(let id, let from):
            emit("incoming call from \(from)", EventName.callIncoming.rawValue, [("call", .string(id.rawValue)), ("from", .string(from))])
        case .answered(let id, let media):
            let codecs = [media.audioCodec, media.videoCodec].compactMap { $0 }.joined(separator: ", ")
            emit("call answered" + (codecs.isEmpty ? "" : " (\(codecs))"), EventName.callAnswered.rawValue,
                 [("call", .string(id.rawValue)), ("audio", .optional(media.audioCodec)), ("video", .optional(media.videoCodec))])
        case .dtmf(let id, let digit):
            emit("dtmf received: \(digit)", "dtmf", [("call", .string(id.rawValue)), ("digit", .string(String(digit)))])
        case .doorOpened(let door):
            emit("door opened: \(door.door) (\(door.method))", EventName.doorOpened.rawValue,
                 [("door", .string(door.door.description)), ("method", .string(door.method))])
        case .ended(let id, let reason, let duration):
            emit("call ended: \(reason.rawValue)", EventName.callEnded.rawValue,
                 [("call", .string(id.rawValue)), ("reason", .string(reason.rawValue)),
                  ("duration_s", .number((duration * 10).rounded() / 10))])
        }
    }
}
