import CSIPIngress

/// The TCP and TLS connections belle-sip has read SIP from, noted by the read hook
/// (sip_stream_sockets.c): the phone thread sleeps on them as on the UDP socket and the TCP
/// listener, so a request on a registrar's connection wakes it at once.
enum SIPStreamSockets {
    /// The noted sockets that are still the sockets they were (closed or reused numbers dropped).
    static func watched() -> [Int32] {
        var buffer = [Int32](repeating: -1, count: 64)
        let count = buffer.withUnsafeMutableBufferPointer { intercom_sip_stream_sockets($0.baseAddress, Int32($0.count)) }
        return Array(buffer.prefix(Int(max(0, count))))
    }

    /// What the bctbx_recv hook does after a read: note the socket (tests call it on their own sockets).
    static func noteRead(_ socket: Int32) {
        intercom_sip_stream_socket_read(socket)
    }

    /// Stops watching a socket poll reported hung up or invalid; a later read notes it again.
    static func forget(_ socket: Int32) {
        intercom_sip_stream_socket_forget(socket)
    }
}
