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

    func register(_ guardian: SIPDatagramGuard) {
        LinphoneThread.assertOnThread()
        bySocket.withLock { table in
            for fd in guardian.descriptors { table[fd] = Entry(guardian: guardian) }
        }
    }

    func unregister(_ guardian: SIPDatagramGuard) {
        LinphoneThread.assertOnThread()
        bySocket.withLock { table in
            for fd in guardian.descriptors where table[fd]?.guardian === guardian { table[fd] = nil }
        }
    }

    /// True when the datagram just read from `fd` is one belle-sip must not see (answered here).
    /// Off the phone thread, or on a socket no guard watches, nothing is decided here.
    func refuses(_ datagram: UnsafeRawBufferPointer, on fd: Int32, source: UnsafePointer<sockaddr>, sourceLength: UInt32) -> Bool {
        guard LinphoneThread.isCurrent, let entry = bySocket.withLock({ $0[fd] }) else { return false }
        return entry.guardian.answeredAtRead(datagram, on: fd, source: source, sourceLength: socklen_t(sourceLength))
    }
}
