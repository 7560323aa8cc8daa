import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Screens the SIP datagrams waiting on the phone's UDP sockets and drops the ones
/// `SIPHeaderScreen` refuses, before belle-sip reads them.
///
/// This works because belle-sip takes at most one datagram from a UDP listening socket per
/// `linphone_core_iterate` (one `recvfrom` per readiness, one main-loop pass per iterate), and
/// both it and this guard run only on the phone thread: the datagram at the head of the queue
/// when the guard looks is the one belle-sip reads next. Dropped datagrams get no answer, as
/// belle-sip's own parser limits give none. TCP streams cannot be screened this way (belle-sip
/// reads whatever arrived by then), so they are not.
final class SIPDatagramGuard {
    private let descriptors: [Int32]
    private let logger: Logger
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    /// Drops since the last log line; logged at most once a minute, so a flood cannot fill the log.
    private var droppedSinceReport = 0
    private var lastReport = Date.distantPast
    private(set) var droppedTotal = 0

    init(udpDescriptors: [Int32], logger: Logger) {
        descriptors = udpDescriptors
        self.logger = logger
    }

    /// Drops refused datagrams from the head of each socket's queue, up to the first acceptable one.
    func screen() {
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
                guard let refusal = SIPHeaderScreen.screen(buffer.prefix(count)) else { break }
                // Reading one byte of a datagram discards all of it.
                var byte: UInt8 = 0
                _ = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
                note(refusal, from: Self.describe(source))
            }
        }
    }

    private func note(_ refusal: SIPHeaderScreen.Refusal, from source: String) {
        droppedTotal += 1
        droppedSinceReport += 1
        let now = Date()
        guard now.timeIntervalSince(lastReport) >= 60 else { return }
        let more = droppedSinceReport > 1 ? " (\(droppedSinceReport) dropped since the last report)" : ""
        logger.warning("dropped a SIP message from \(source) with \(refusal)\(more); liblinphone would crash or stall on it")
        droppedSinceReport = 0
        lastReport = now
    }

    private static func describe(_ address: sockaddr_storage) -> String {
        var copy = address
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var port = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let rc = withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, socklen_t(MemoryLayout<sockaddr_storage>.size), &host, socklen_t(host.count),
                            &port, socklen_t(port.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard rc == 0 else { return "an unknown address" }
        let hostText = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let portText = String(decoding: port.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return hostText.contains(":") ? "[\(hostText)]:\(portText)" : "\(hostText):\(portText)"
    }
}
