import Foundation
import IntercomCore
import IntercomBase
import IntercomPhone

/// A datagram or TCP read from anyone who can reach the SIP port, through what the phone thread
/// does with it before belle-sip: the header screen (whole, and in pieces as TCP reads come), the
/// request head, the stateless 403 and the caller gate. The first input byte sets the piece size
/// (low 5 bits) and the address the packets came from (high 3 bits); the rest is the message.
enum SIPFuzz {
    /// Two panels as a config would give them (one matched by URI prefix, one taking every call from
    /// its IPv6 address) and a registrar.
    private static let panels = [
        PanelConfig(name: "front", url: "http://192.0.2.10", match: [.uriPrefix("sip:100001@")]),
        PanelConfig(name: "back", url: "http://[2001:db8::5]:8080"),
    ]
    private static let registrar = "198.51.100.1"
    private static let gate = CallerGate(CallerDirectory(panels: panels, registrarHosts: [registrar], rejectStrangers: true) { _ in [] })
    /// Where the packets came from: unknown, each panel (also spelt otherwise), the registrar, strangers.
    private static let sources: [String?] = [nil, "192.0.2.10", "2001:db8::5", "2001:DB8:0:0::5", registrar,
                                             "203.0.113.9", "::ffff:192.0.2.10", "192.0.2.100"]
    /// The addresses each panel's own calls may come from, as `sources` spells them.
    private static let panelSources: [String: Set<String>] = [
        "front": ["192.0.2.10", "::ffff:192.0.2.10"], "back": ["2001:db8::5", "2001:DB8:0:0::5"],
    ]
    private static let edges = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\r"))

    static func run(_ input: [UInt8]) {
        guard let first = input.first else { return }
        let message = Array(input.dropFirst())
        let piece = Int(first % 32) + 1
        let source = sources[Int(first / 32)]

        // A message split across TCP reads is judged as the same message in one datagram.
        let whole = SIPReaders.screen(message)
        let pieces = SIPReaders.screen(message, inPiecesOf: piece)
        precondition(whole == pieces, "the screen judged \(piece)-byte pieces (\(pieces ?? "pass")) unlike the whole (\(whole ?? "pass"))")

        if whole == nil {
            // What passes the screen holds no address longer than the limit, however it is spelled
            // (compact form, folded, blanks before the colon, bare LFs), read the way belle-sip reads
            // lines (CRLF only) or the way a reader that splits at bare LFs does. A Contact may list
            // several bindings (up to the list limit); one without a comma is one address.
            for bareLFEndsLine in [false, true] {
                for (name, bytes) in HeaderLineReader.headers(message, bareLFEndsLine: bareLFEndsLine)
                where ["from", "to", "contact"].contains(name) {
                    let limit = name == "contact" ? SIPReaders.maxContactListBytes : SIPReaders.maxAddressHeaderBytes
                    precondition(bytes <= limit, "a \(bytes)-byte \(name) passed the screen (bare LF ends a line: \(bareLFEndsLine))")
                }
            }
        }

        checkStrangerGate(message, piece: piece)
        guard let head = SIPReaders.head(message) else { return }
        checkReply(to: message, head: head)

        if let from = head.headers.first(where: { $0.name == "from" })?.value {
            // Whatever the headers say, only the packets' source makes a caller a panel.
            let verdict = gate.identify(from: from, contactHost: head.contactHost, source: source)
            switch verdict {
            case .panel(let name, route: .direct):
                precondition(source.map { panelSources[name]?.contains($0) == true } == true,
                             "a call from \(source ?? "nowhere") was taken for panel \(name)")
            case .panel(let name, route: .registrar):
                precondition(source == registrar, "a call from \(source ?? "nowhere") was taken for \(name) through the registrar")
            case .impostor(let name, _):
                precondition(source.map { panelSources[name]?.contains($0) != true } ?? true,
                             "panel \(name)'s own address was called an impostor")
            case .operatorPanel:
                preconditionFailure("no operator is configured, yet a call was taken for an operator's panel")
            case .stranger:
                break
            }
            // Under unknown_callers = reject, everyone but a panel is refused before it rings.
            var isPanel = false
            if case .panel = verdict { isPanel = true }
            precondition(gate.refuses(verdict) != isPanel, "\(verdict) refused: \(gate.refuses(verdict))")
        }
    }

    /// The 403 is a SIP response that reads back with the request's transaction and dialog headers,
    /// a To tag, nothing added, and the same bytes every time (a retransmission gets the same answer).
    private static func checkReply(to message: [UInt8], head: SIPReaders.Head) {
        guard let reply = SIPReaders.statelessReply("403 Forbidden", to: message) else { return }
        precondition(SIPReaders.statelessReply("403 Forbidden", to: message) == reply, "the reply is not stable")
        guard let back = SIPReaders.head(reply) else { preconditionFailure("the reply does not parse") }
        precondition(back.startLine == "SIP/2.0 403 Forbidden" && back.method == nil, "bad status line: \(back.startLine)")
        precondition(back.hasToTag, "the reply's To has no tag")
        // Blanks and stray CRs at a value's edges may differ: a fold holding only blanks leaves one
        // behind, and a reply line cannot end in CR (docs/PROOF.md, item 10).
        func values(_ name: String, _ h: SIPReaders.Head) -> [String] {
            h.headers.filter { $0.name == name }.map { $0.value.trimmingCharacters(in: Self.edges) }
        }
        let vias = values("via", head)
        precondition(back.headers.count == vias.count + 5, "the reply has \(back.headers.count) headers, not \(vias.count + 5)")
        precondition(values("via", back) == vias, "the Vias changed")
        for name in ["from", "call-id", "cseq"] {
            precondition(values(name, back).first == values(name, head).first, "the \(name) changed")
        }
    }

    /// A stranger with no dialog gets no request through a datagram, and a TCP stream is framed the
    /// same however it is cut: the same heads judged, the same bytes for belle-sip.
    private static func checkStrangerGate(_ message: [UInt8], piece: Int) {
        let verdict = SIPReaders.strangerVerdict(message)
        if verdict == "pass" {
            let start = message.drop { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
            precondition(start.isEmpty || start.starts(with: Array("SIP/2.0 ".utf8)), "a stranger's request passed: \(verdict)")
        }
        let whole = SIPReaders.frame(message, inPiecesOf: message.count, refusing: "MESSAGE")
        let pieces = SIPReaders.frame(message, inPiecesOf: piece, refusing: "MESSAGE")
        if let read = whole.read, let cut = pieces.read {
            precondition(read == cut && whole.judged == pieces.judged,
                         "\(piece)-byte reads were framed unlike one read: \(pieces.judged) vs \(whole.judged)")
        }
    }
}
