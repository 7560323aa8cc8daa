import Foundation
#if canImport(Glibc)
import Glibc
#endif
import IntercomBase

/// Looks at the SIP datagrams waiting on the phone's UDP sockets before belle-sip reads them:
/// answers new INVITEs from callers the `CallerGate` turns away (impostors; strangers under
/// `unknown_callers = reject`) with a stateless 403, swallowing the ACK that follows, and a
/// stranger's other requests outside any dialog with it with 403 or 405 (`SIPStrangerScreen`;
/// over TCP, `SIPDatagramGuard+Streams`). Headers
/// are screened (`SIPHeaderScreen`) once per datagram: by the read hook when it is in place
/// (`SIPIngress.inPlace`), here only when it is not. Leading CR and LF, which belle-sip skips,
/// are skipped here too, so they cannot carry an INVITE past the gate.
///
/// With the read hook in place the gate runs at the read itself (`SIPDatagramGuards`, from
/// `intercom_sip_message_refused`): every datagram belle-sip takes is looked at, however many it
/// takes in one iterate. Without it, this looks before each iterate at the head of each queue,
/// which is enough only while belle-sip takes one datagram a turn: under heavy load one of 2000
/// strangers' INVITEs once got past that way (DECISIONS "The caller gate at the read").
/// Dropped datagrams get no answer, as belle-sip's own parser limits give none. TCP streams are
/// screened only by the read hook (`screenStream`): a look before the iterate cannot tell where
/// belle-sip's reads will cut them.
final class SIPDatagramGuard {
    let descriptors: [Int32]
    /// The read hook gates each datagram (the look before each iterate is then not needed).
    private let gatesAtRead: Bool
    let gate: CallerGate?
    private let screensHeaders: Bool
    let logger: Logger
    /// Branches of INVITEs refused here, so their ACKs never reach belle-sip (which would answer them).
    private var refusedBranches: [String] = []
    private var refusedBranchSet: Set<String> = []
    private static let rememberedBranches = 512
    private var refusals = RefusedCallerLog()
    /// Requests refused at the read (strangers', anyone's chat and presence), logged at most every 10 s.
    var strangers = SIPStrangerRefusalLog()
    /// The TCP connections accepted on our listening ports, each with its framer.
    var streams: [Int32: SIPStreamState] = [:]
    /// Our TCP listening ports: a connection accepted there is screened like a datagram.
    let tcpPorts: Set<Int>
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    /// Drops are logged at most once a minute, with how many there were.
    private var drops = LogThrottle(every: .seconds(60))
    private(set) var droppedTotal = 0

    init(udpDescriptors: [Int32], tcpPorts: [Int] = [], gate: CallerGate?, screensHeaders: Bool = !SIPIngress.inPlace,
         gatesAtRead: Bool = SIPIngress.inPlace, logger: Logger) {
        descriptors = udpDescriptors
        self.tcpPorts = Set(tcpPorts)
        self.gate = gate
        self.screensHeaders = screensHeaders
        self.gatesAtRead = gatesAtRead
        self.logger = logger
    }

    /// Deals with the datagrams at the head of each socket's queue, up to the first one that is
    /// belle-sip's to read.
    func screen() {
        if let report = SIPIngressRefusals.shared.take() {
            // What the read hook kept from belle-sip since the last turn.
            note(report.refusal, from: report.source, count: report.count)
        }
        guard !gatesAtRead else { return }
        for fd in descriptors {
            while true {
                var source = sockaddr_storage()
                var sourceLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let count = buffer.withUnsafeMutableBytes { raw in
                    withUnsafeMutablePointer(to: &source) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            recvfrom(fd, raw.baseAddress, raw.count, Int32(MSG_PEEK | MSG_DONTWAIT), $0, &sourceLength)
                        }
                    }
                }
                guard count > 0 else { break }
                if screensHeaders, let refusal = SIPHeaderScreen.screen(buffer.prefix(count)) {
                    Self.discard(fd)
                    note(refusal, from: Self.describe(source))
                    continue
                }
                guard answeredHere(buffer.prefix(count), on: fd, source: source, sourceLength: sourceLength) else { break }
                Self.discard(fd)
            }
        }
    }

    /// Reading one byte of a datagram discards all of it.
    private static func discard(_ fd: Int32) {
        var byte: UInt8 = 0
        _ = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
    }

    /// What the read hook does with a datagram belle-sip has just read (the values are the C hook's).
    enum ReadVerdict: Int32 {
        /// belle-sip parses it.
        case pass = 0
        /// Answered or dropped here; belle-sip gets a keep-alive instead and keeps its channel.
        case answered = 1
        /// Answered or dropped here, and the source is a stranger with no dialog with us: belle-sip's
        /// channel for it (one per source address and port, with a 64 KB buffer) goes too. A flood
        /// from a new port each time grew the daemon by 66 KB a datagram, 133 MB for 2 000, otherwise.
        case answeredDroppingChannel = 2
    }

    /// The read hook's question for one datagram belle-sip has just read from `fd`: answered here
    /// (a stranger's request outside any dialog, a refused caller's INVITE or the ACK of one) or not.
    func verdictAtRead(_ datagram: UnsafeRawBufferPointer, on fd: Int32, source: UnsafePointer<sockaddr>,
                       sourceLength: socklen_t) -> ReadVerdict {
        LinphoneThread.assertOnThread()
        var address = sockaddr_storage()
        let length = min(Int(sourceLength), MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &address) { $0.copyMemory(from: UnsafeRawBufferPointer(start: source, count: length)) }
        guard answeredHere(Array(datagram)[...], on: fd, source: address, sourceLength: socklen_t(length)) else { return .pass }
        guard let gate, let host = withUnsafeBytes(of: &address, { SocketAddressText.host(UnsafeRawBufferPointer(rebasing: $0.prefix(length))) }),
              !gate.trusts(source: host), !SIPDialogLedger.shared.hasDialogs(with: host) else { return .answered }
        return .answeredDroppingChannel
    }

    /// True when the datagram was dealt with here: a stranger's request outside any dialog with it
    /// (`SIPStrangerScreen`: answered 403 or 405, or dropped), a new INVITE from a caller the gate
    /// refuses (answered 403), or the ACK of one.
    private func answeredHere(_ datagram: ArraySlice<UInt8>, on fd: Int32, source: sockaddr_storage,
                              sourceLength: socklen_t) -> Bool {
        guard let gate else { return false }
        let message = datagram.drop { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
        var destination = source
        let sourceHost = withUnsafeBytes(of: &destination) { SocketAddressText.host(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(sourceLength)))) }
        if message.starts(with: Self.ack), let head = SIPRequestHead(message), head.method == "ACK",
           let branch = head.branch, refusedBranchSet.contains(branch) {
            return true
        }
        let stranger = !gate.trusts(source: sourceHost)
        if !stranger, SIPStrangerScreen.mayBeNeverAccepted(message), let head = SIPRequestHead(message),
           case .refuse(let status) = SIPStrangerScreen.judgeTrusted(head) {
            refuse(head, status: status, on: fd, to: &destination, length: sourceLength)
            return true
        }
        if stranger, let sourceHost {
            let verdict = SIPStrangerScreen.judgeDatagram(Array(message)) { SIPDialogLedger.shared.knows(callID: $0, host: sourceHost) }
            switch verdict {
            case .pass: return false
            case .newCall: break
            case .refuse(let status):
                guard let head = SIPRequestHead(message) else { return true }
                refuse(head, status: status, on: fd, to: &destination, length: sourceLength)
                return true
            case .drop:
                strangers.note(verdict, method: nil, from: Self.describe(source), logger: logger)
                return true
            }
        }
        guard message.starts(with: Self.invite), let head = SIPRequestHead(message), head.method == "INVITE",
              !head.hasToTag, let from = head.first("from") else { return false }
        guard let verdict = gate.refusal(from: from, contactHost: head.contactHost, source: sourceHost),
              let reply = SIPStatelessReply.response("403 Forbidden", to: head) else {
            // Rings: the caller's dialog is open to its CANCEL, ACK, BYE and re-INVITEs, from where it
            // came or, through a trusted registrar, from where its Contact says it is.
            if let callID = head.first("call-id"), let host = stranger ? sourceHost : head.contactHost {
                SIPDialogLedger.shared.note(callID: callID, host: host)
            }
            return false
        }
        send(reply, on: fd, to: &destination, length: sourceLength)
        if let branch = head.branch { remember(branch) }
        refusals.note(verdict, from: from, source: sourceHost, logger: logger)
        return true
    }

    /// Answers `head` with `status` (405 with `Allow:`) and notes it for the log.
    private func refuse(_ head: SIPRequestHead, status: String, on fd: Int32, to destination: inout sockaddr_storage,
                        length: socklen_t) {
        let allow = status == SIPStrangerScreen.methodNotAllowed ? SIPStrangerScreen.allowed : nil
        if let reply = SIPStatelessReply.response(status, to: head, allow: allow) {
            send(reply, on: fd, to: &destination, length: length)
        }
        strangers.note(.refuse(status: status), method: head.method, from: Self.describe(destination), logger: logger)
    }

    private func send(_ reply: [UInt8], on fd: Int32, to destination: inout sockaddr_storage, length: socklen_t) {
        _ = reply.withUnsafeBytes { bytes in
            withUnsafePointer(to: &destination) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, length)
                }
            }
        }
    }

    private static let invite = Array("INVITE ".utf8)
    private static let ack = Array("ACK ".utf8)

    private func remember(_ branch: String) {
        guard refusedBranchSet.insert(branch).inserted else { return }
        refusedBranches.append(branch)
        if refusedBranches.count > Self.rememberedBranches {
            refusedBranchSet.remove(refusedBranches.removeFirst())
        }
    }

    var refusedTotal: Int { refusals.total }

    private func note(_ refusal: SIPHeaderScreen.Refusal, from source: String, count: Int = 1) {
        droppedTotal += count
        guard let dropped = drops.admit(count) else { return }
        let more = dropped > 1 ? " (\(dropped) dropped since the last report)" : ""
        logger.warning("dropped a SIP message from \(source) with \(refusal)\(more); liblinphone would crash or stall on it")
    }

    static func describe(_ address: sockaddr_storage) -> String {
        var copy = address
        return withUnsafeBytes(of: &copy) { SocketAddressText.hostAndPort($0) } ?? "an unknown address"
    }
}
