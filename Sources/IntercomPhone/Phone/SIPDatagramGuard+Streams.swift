#if canImport(Glibc)
import Glibc
#endif
import IntercomBase

/// One TCP connection opened to our listening port: which socket it still is (a closed number can
/// be reused), where it comes from, and its framer.
struct SIPStreamState {
    let device: UInt64
    let inode: UInt64
    let peer: String
    let peerText: String
    var framer = SIPStreamFramer()
}

/// The read gate over TCP: each message sent on a connection opened to us is judged by its whole
/// head as a datagram is (`SIPStrangerScreen`; a panel's or the registrar's only for chat, presence
/// and publications), whatever the segmentation; a refused one is answered on the connection and
/// cut out of what belle-sip reads, and the connection stays up.
extension SIPDatagramGuard {
    /// At most this many connections are followed at once; older numbers are checked first.
    static let followedStreams = 64

    /// Bytes held back for `socket` (the start of a head that has not ended): the hook reads that
    /// much less, so they fit in front of what it reads next.
    func heldBytes(on socket: Int32) -> Int {
        guard let state = streams[socket], let identity = Self.identity(of: socket),
              identity == (state.device, state.inode) else { return 0 }
        return state.framer.held.count
    }

    /// Screens `count` bytes just read from `socket` into `buffer` (room for `buffer.count`): returns
    /// how many belle-sip may read now (moved to the front), or -1 to end the connection.
    func screenStream(_ socket: Int32, _ buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int {
        // A phone without a caller gate (the tests' own, the simulators') screens nothing.
        guard gate != nil, let identity = Self.identity(of: socket) else { return count }
        var state: SIPStreamState
        if let known = streams.removeValue(forKey: socket), identity == (known.device, known.inode) {
            state = known
        } else {
            guard let peer = Self.peer(of: socket) else { return count }
            state = SIPStreamState(device: identity.0, inode: identity.1, peer: peer.host, peerText: peer.text)
        }
        let peer = (host: state.peer, text: state.peerText)
        let output = state.framer.feed(UnsafeRawBufferPointer(rebasing: buffer.prefix(count))) { head in
            judgeStreamed(head, on: socket, peer: peer.host, peerText: peer.text)
        }
        guard let output, output.count <= buffer.count else {
            strangers.note(.drop("a TCP stream that is no SIP a stranger may send"), method: nil, from: state.peerText, logger: logger)
            return -1
        }
        remember(state, for: socket)
        output.withUnsafeBytes { buffer.copyMemory(from: $0) }
        return output.count
    }

    /// The connection ended: its framer goes.
    func streamEnded(_ socket: Int32) {
        streams[socket] = nil
    }

    private func judgeStreamed(_ head: ArraySlice<UInt8>, on socket: Int32, peer: String, peerText: String) -> Bool {
        guard let request = SIPRequestHead(head) else { return false }
        // The header screen on the whole head: per read (in the hook) a header cut in two passes it.
        if let refusal = SIPHeaderScreen.screen(head) {
            strangers.note(.drop("a message with \(refusal)"), method: nil, from: peerText, logger: logger)
            return false
        }
        let trusted = gate?.trusts(source: peer) ?? true
        let verdict = trusted ? SIPStrangerScreen.judgeTrusted(request)
            : SIPStrangerScreen.judge(request) { SIPDialogLedger.shared.knows(callID: $0, host: peer) }
        switch verdict {
        case .pass:
            // A call a panel or the registrar brings: its caller may ACK and hang up from its Contact's address.
            if trusted, request.method == "INVITE", !request.hasToTag, let callID = request.first("call-id"),
               let contact = request.contactHost {
                SIPDialogLedger.shared.note(callID: callID, host: contact)
            }
            return true
        case .newCall:
            // Over TCP the caller gate is the engine's, as before; the call's dialog is open to its requests.
            if !trusted, let callID = request.first("call-id") { SIPDialogLedger.shared.note(callID: callID, host: peer) }
            return true
        case .refuse(let status):
            let allow = status == SIPStrangerScreen.methodNotAllowed ? SIPStrangerScreen.allowed : nil
            if let reply = SIPStatelessReply.response(status, to: request, allow: allow) {
                _ = reply.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            }
        case .drop:
            break
        }
        strangers.note(verdict, method: request.method, from: peerText, logger: logger)
        return false
    }

    private func remember(_ state: SIPStreamState, for socket: Int32) {
        if streams.count >= Self.followedStreams {
            streams = streams.filter { entry in Self.identity(of: entry.key).map { $0 == (entry.value.device, entry.value.inode) } ?? false }
            if streams.count >= Self.followedStreams, let any = streams.keys.first { streams[any] = nil }
        }
        streams[socket] = state
    }

    private static func identity(of socket: Int32) -> (UInt64, UInt64)? {
        var status = stat()
        guard fstat(socket, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// The connection's peer, as a host (for the ledger and the trust check) and as text for the log.
    private static func peer(of socket: Int32) -> (host: String, text: String)? {
        guard let address = SIPIngress.peer(of: socket) else { return nil }
        return address.withUnsafeBytes { raw in
            SocketAddressText.host(raw).map { ($0, SocketAddressText.hostAndPort(raw) ?? $0) }
        }
    }
}
