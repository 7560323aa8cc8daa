#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Which guard watches each UDP socket of the phones in this process, for the read hook: belle-sip
/// reads through `intercom_sip_message_refused` on the phone thread, and the guard of the socket
/// read answers a refused caller's INVITE there, before belle-sip parses it. Process-wide like the
/// hook itself; the guards are the phone thread's and are only reached from it.
final class SIPDatagramGuards: Sendable {
    static let shared = SIPDatagramGuards()

    /// A guard handed across the registry's lock; used only on the phone thread (asserted there).
    private struct Entry: @unchecked Sendable {
        let guardian: SIPDatagramGuard
    }

    private let bySocket = Mutex<[Int32: Entry]>([:])
    /// The guards by TCP listening port: a connection accepted on one is that guard's to screen.
    private let byTCPPort = Mutex<[Int: Entry]>([:])

    func register(_ guardian: SIPDatagramGuard) {
        LinphoneThread.assertOnThread()
        bySocket.withLock { table in
            for fd in guardian.descriptors { table[fd] = Entry(guardian: guardian) }
        }
        byTCPPort.withLock { table in
            for port in guardian.tcpPorts { table[port] = Entry(guardian: guardian) }
        }
    }

    func unregister(_ guardian: SIPDatagramGuard) {
        LinphoneThread.assertOnThread()
        bySocket.withLock { table in
            for fd in guardian.descriptors where table[fd]?.guardian === guardian { table[fd] = nil }
        }
        byTCPPort.withLock { table in
            for port in guardian.tcpPorts where table[port]?.guardian === guardian { table[port] = nil }
        }
    }

    /// Whether the datagram just read from `fd` is one belle-sip must not see (answered here), and
    /// whether its channel may go. Off the phone thread, or on a socket no guard watches, nothing is
    /// decided here.
    func verdict(_ datagram: UnsafeRawBufferPointer, on fd: Int32, source: UnsafePointer<sockaddr>,
                 sourceLength: UInt32) -> SIPDatagramGuard.ReadVerdict {
        guard LinphoneThread.isCurrent, let entry = bySocket.withLock({ $0[fd] }) else { return .pass }
        return entry.guardian.verdictAtRead(datagram, on: fd, source: source, sourceLength: socklen_t(sourceLength))
    }

    /// The guard of the listening port a stream socket was accepted on; nil off the phone thread,
    /// or for a connection we opened (to a registrar or a callee we chose).
    private func streamGuard(_ socket: Int32) -> SIPDatagramGuard? {
        guard LinphoneThread.isCurrent, let port = SocketInventory.localPort(of: socket) else { return nil }
        return byTCPPort.withLock { $0[port] }?.guardian
    }

    func heldBytes(on socket: Int32) -> Int {
        streamGuard(socket)?.heldBytes(on: socket) ?? 0
    }

    /// What belle-sip may read of a TCP read (`SIPDatagramGuard.screenStream`); -1 ends the connection.
    func screenStream(_ socket: Int32, _ buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int {
        streamGuard(socket)?.screenStream(socket, buffer, count: count) ?? count
    }

    func streamEnded(_ socket: Int32) {
        streamGuard(socket)?.streamEnded(socket)
    }
}
