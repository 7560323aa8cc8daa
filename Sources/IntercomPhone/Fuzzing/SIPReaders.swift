/// The raw SIP readers of the phone thread (`SIPHeaderScreen`, `SIPRequestHead`, `SIPStatelessReply`),
/// reachable from `intercom-fuzz` without widening the library's API: `package`, like `LineSplitter`
/// (`@testable` would fail in a release build).
package enum SIPReaders {
    /// A parsed message head, as the phone thread's guard sees it.
    package struct Head: Sendable {
        package let startLine: String
        package let headers: [(name: String, value: String)]
        package let method: String?
        package let branch: String?
        package let hasToTag: Bool
        package let contactHost: String?
    }

    /// The longest From, To or Contact header the screen lets through.
    package static var maxAddressHeaderBytes: Int { SIPHeaderScreen.maxAddressHeaderBytes }
    /// The longest Contact list (several bindings) it lets through.
    package static var maxContactListBytes: Int { SIPHeaderScreen.maxContactListBytes }

    /// The screen's refusal of a whole message (a datagram), nil when it passes.
    package static func screen(_ message: [UInt8]) -> String? {
        SIPHeaderScreen.screen(message)?.header
    }

    /// The same message fed to one screen in pieces of at most `piece` bytes (TCP reads).
    package static func screen(_ message: [UInt8], inPiecesOf piece: Int) -> String? {
        var screen = SIPHeaderScreen()
        var refusal: SIPHeaderScreen.Refusal?
        var start = 0
        repeat {
            let end = min(message.count, start + max(1, piece))
            refusal = screen.feed(message[start..<end])
            start = end
        } while start < message.count
        return refusal?.header
    }

    package static func head(_ bytes: [UInt8]) -> Head? {
        guard let head = SIPRequestHead(bytes) else { return nil }
        return Head(startLine: head.startLine, headers: head.headers, method: head.method, branch: head.branch,
                    hasToTag: head.hasToTag, contactHost: head.contactHost)
    }

    /// The stateless answer the guard would send to `request`, nil when it cannot build one.
    package static func statelessReply(_ status: String, to request: [UInt8]) -> [UInt8]? {
        guard let head = SIPRequestHead(request) else { return nil }
        return SIPStatelessReply.response(status, to: head)
    }

    /// A stranger's datagram through the read gate, with no dialog known: "pass", "newCall",
    /// "refuse STATUS" or "drop REASON".
    package static func strangerVerdict(_ datagram: [UInt8]) -> String {
        switch SIPStrangerScreen.judgeDatagram(datagram, knownDialog: { _ in false }) {
        case .pass: "pass"
        case .newCall: "newCall"
        case .refuse(let status): "refuse \(status)"
        case .drop(let reason): "drop \(reason)"
        }
    }

    /// A stranger's TCP stream through the framer in reads of at most `piece` bytes, each head's
    /// start line refused when it starts with `refused`: what belle-sip would read (nil: the
    /// connection ended) and the start lines judged, in order.
    package static func frame(_ stream: [UInt8], inPiecesOf piece: Int, refusing refused: String) -> (read: [UInt8]?, judged: [String]) {
        var framer = SIPStreamFramer()
        var judged: [String] = []
        var read: [UInt8] = []
        var start = 0
        repeat {
            let end = min(stream.count, start + max(1, piece))
            let out = Array(stream[start..<end]).withUnsafeBytes { bytes in
                framer.feed(bytes) { head in
                    let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
                    judged.append(line)
                    return !line.hasPrefix(refused)
                }
            }
            guard let out else { return (nil, judged) }
            read += out
            start = end
        } while start < stream.count
        return (read, judged)
    }
}
