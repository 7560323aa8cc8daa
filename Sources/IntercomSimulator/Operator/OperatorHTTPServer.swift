import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import Synchronization

/// The operator simulator's HTTP listener: a thread-per-connection libmicrohttpd daemon on any
/// address (loopback by default) that gathers each request, POST body included, and hands it to
/// `handler` on the connection's thread.
final class OperatorHTTPServer: Sendable {
    /// Bodies above this are cut off and answered 413: the API's bodies are a few hundred bytes.
    static let maxBodyBytes = 1 << 20

    let context: OperatorHTTPContext
    private let running = Mutex<OperatorDaemon?>(nil)
    private let boundPort = Atomic<UInt16>(0)

    init(handler: @escaping @Sendable (OperatorRequest) -> OperatorReply) {
        context = OperatorHTTPContext(handler: handler)
    }

    deinit { stop() }

    /// Listens on `host` (an IPv4 or IPv6 literal) and `port` (0 = any free one); returns the bound port.
    func start(host: String, port: UInt16) throws(SimulatorError) -> UInt16 {
        let context = self.context
        let bound = try running.withLock { (slot: inout OperatorDaemon?) throws(SimulatorError) -> UInt16 in
            if let existing = slot.take() {
                let port = existing.port
                slot = consume existing
                return port
            }
            context.setStopping(false)
            guard let daemon = OperatorDaemon(context: context, host: host, port: port) else {
                throw .cannotListen(host: host, port: port)
            }
            let port = daemon.port
            slot = consume daemon
            return port
        }
        boundPort.store(bound, ordering: .relaxed)
        return bound
    }

    /// Closes the socket and every connection (a slow-fault answer in progress ends early).
    func stop() {
        context.setStopping(true)
        running.withLock { $0 = nil }
        boundPort.store(0, ordering: .relaxed)
    }

    var port: UInt16 { boundPort.load(ordering: .relaxed) }
}
