import CMicroHTTPD
import CMicroHTTPDShim
import Foundation

/// A started MHD daemon for the operator; dropping it stops the daemon (joining every connection thread).
struct OperatorDaemon: ~Copyable {
    let daemon: OpaquePointer
    let port: UInt16

    init?(context: OperatorHTTPContext, host: String, port: UInt16) {
        let cls = Unmanaged.passUnretained(context).toOpaque()
        let started = intercom_mhd_start_bound(
            host, port,
            { cls, connection, url, method, _, upload, uploadSize, slot in
                guard let cls, let connection else { return .NO }
                let context = Unmanaged<OperatorHTTPContext>.fromOpaque(cls).takeUnretainedValue()
                return context.access(connection, url: url.map { String(cString: $0) } ?? "/",
                                      method: method.map { String(cString: $0) } ?? "GET",
                                      upload: upload, uploadSize: uploadSize, slot: slot)
            },
            cls,
            { _, _, slot, _ in
                // Every request that got a body buffer gives it back here, finished or abandoned.
                guard let slot, let raw = slot.pointee else { return }
                Unmanaged<RequestBodyBuffer>.fromOpaque(raw).release()
                slot.pointee = nil
            },
            nil, 30)
        guard let started else { return nil }
        self.daemon = started
        self.port = intercom_mhd_bound_port(started)
    }

    deinit { MHD_stop_daemon(daemon) }
}
