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
}
