import CSIPIngress
#if canImport(Glibc)
import Glibc
#endif
import IntercomBase

/// The Swift half of the read hook in CSIPIngress: belle-sip's every SIP read passes through
/// here. The header screen is a function of the bytes alone, so it may run on any thread; a refusal
/// is noted with its source for the phone thread's log. A datagram that passes it meets the caller
/// gate of its socket (`SIPDatagramGuards`, phone thread only).
@_cdecl("intercom_sip_message_refused")
func intercomSIPMessageRefused(_ bytes: UnsafeRawPointer?, _ length: Int, _ address: UnsafePointer<sockaddr>?,
                               _ addressLength: UInt32, _ socket: Int32) -> Int32 {
    guard let bytes, length > 0 else { return 0 }
    let message = UnsafeRawBufferPointer(start: bytes, count: length)
    guard let refusal = SIPHeaderScreen.screen(message) else {
        // A datagram (it has a source): the read gate answers a stranger's request, the caller gate a refused
        // caller's INVITE, here at the read (2: and belle-sip's channel for that stranger may go).
        guard let address, addressLength > 0 else { return 0 }
        return SIPDatagramGuards.shared.verdict(message, on: socket, source: address, sourceLength: addressLength).rawValue
    }
    SIPIngressRefusals.shared.note(refusal, from: SIPIngress.describe(address, addressLength, socket: socket))
    return 1
}

/// Every read the hook let through, with the address it came from: the source ledger learns
/// which address each Call-ID arrived from, and a transfer's NOTIFY leaves its status line.
@_cdecl("intercom_sip_message_observed")
func intercomSIPMessageObserved(_ bytes: UnsafeRawPointer?, _ length: Int, _ address: UnsafePointer<sockaddr>?,
                                _ addressLength: UInt32) {
    guard let bytes, length > 0, let address else { return }
    let message = UnsafeRawBufferPointer(start: bytes, count: length)
    SIPSourceLedger.shared.observe(message, from: SocketAddressText.host(UnsafeRawBufferPointer(start: address, count: Int(addressLength))))
    SIPTransferReports.shared.observe(message)
}

/// What belle-sip sent, with where to: each Call-ID in it is a dialog with that address.
@_cdecl("intercom_sip_message_sent")
func intercomSIPMessageSent(_ bytes: UnsafeRawPointer?, _ length: Int, _ address: UnsafePointer<sockaddr>?,
                            _ addressLength: UInt32, _ socket: Int32) {
    guard let bytes, length > 0 else { return }
    let message = UnsafeRawBufferPointer(start: bytes, count: length)
    SIPDialogLedger.shared.observeSent(message, to: SIPIngress.host(address, addressLength, socket: socket))
}

@_cdecl("intercom_sip_stream_held")
func intercomSIPStreamHeld(_ socket: Int32) -> Int {
    SIPDatagramGuards.shared.heldBytes(on: socket)
}

@_cdecl("intercom_sip_stream_screened")
func intercomSIPStreamScreened(_ socket: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ capacity: Int) -> Int {
    guard let buffer, count > 0, capacity >= count else { return count }
    return SIPDatagramGuards.shared.screenStream(socket, UnsafeMutableRawBufferPointer(start: buffer, count: capacity), count: count)
}

@_cdecl("intercom_sip_stream_ended")
func intercomSIPStreamEnded(_ socket: Int32) {
    SIPDatagramGuards.shared.streamEnded(socket)
}

enum SIPIngress {
    /// The host of a message's peer: the datagram's address, else the socket's peer.
    static func host(_ address: UnsafePointer<sockaddr>?, _ length: UInt32, socket: Int32) -> String? {
        if let address, length > 0 {
            return SocketAddressText.host(UnsafeRawBufferPointer(start: address, count: Int(length)))
        }
        return peer(of: socket).flatMap { bytes in bytes.withUnsafeBytes { SocketAddressText.host($0) } }
    }

    /// "HOST:PORT" of a message's sender: the datagram's source, else the socket's peer.
    static func describe(_ address: UnsafePointer<sockaddr>?, _ length: UInt32, socket: Int32) -> String {
        if let address, length > 0,
           let text = SocketAddressText.hostAndPort(UnsafeRawBufferPointer(start: address, count: Int(length))) {
            return text
        }
        return peer(of: socket).flatMap { bytes in bytes.withUnsafeBytes { SocketAddressText.hostAndPort($0) } } ?? "an unknown peer"
    }

    /// The address of a connected socket's peer (a `sockaddr`'s bytes), nil when it has none.
    static func peer(of socket: Int32) -> [UInt8]? {
        var peer = sockaddr_storage()
        var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = socket >= 0 && withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &peerLength) == 0 }
        }
        guard found else { return nil }
        return withUnsafeBytes(of: &peer) { Array($0.prefix(Int(peerLength))) }
    }

    /// Whether belle-sip reads through the hooks: then they screen every SIP message once, at
    /// the read, and know where each came from.
    static let inPlace = intercom_sip_ingress_in_place() != 0
}
