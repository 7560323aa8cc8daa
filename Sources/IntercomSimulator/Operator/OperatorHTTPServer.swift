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

/// What MHD's callbacks reach through their `void *` argument.
final class OperatorHTTPContext: Sendable {
    let handler: @Sendable (OperatorRequest) -> OperatorReply
    private let stopping = Atomic<Bool>(false)

    init(handler: @escaping @Sendable (OperatorRequest) -> OperatorReply) { self.handler = handler }

    var isStopping: Bool { stopping.load(ordering: .relaxed) }
    func setStopping(_ value: Bool) { stopping.store(value, ordering: .relaxed) }

    /// One MHD access-handler call. The first call of a request only sets up the body buffer; the
    /// calls with upload data append to it; the last (no upload data) answers.
    func access(_ connection: OpaquePointer, url: String, method: String,
                upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?,
                slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
        guard let slot else { return .NO }
        guard let raw = slot.pointee else {
            slot.pointee = Unmanaged.passRetained(RequestBodyBuffer()).toOpaque()
            return .YES
        }
        let buffer = Unmanaged<RequestBodyBuffer>.fromOpaque(raw).takeUnretainedValue()
        if let uploadSize, uploadSize.pointee > 0 {
            if let upload { buffer.append(upload, count: uploadSize.pointee, limit: OperatorHTTPServer.maxBodyBytes) }
            uploadSize.pointee = 0
            return .YES
        }
        var headers: [String: String] = [:]
        for name in ["Authorization", "Accept-Language", "X-System-Info", "Content-Type"] {
            if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) {
                headers[name.lowercased()] = String(cString: value)
            }
        }
        let path = String(url.prefix { $0 != "?" })
        let request = OperatorRequest(method: method, path: path, headers: headers, body: buffer.data,
                                      bodyTooLarge: buffer.overflowed)
        return queue(handler(request), on: connection)
    }

    private func queue(_ reply: OperatorReply, on connection: OpaquePointer) -> MHD_Result {
        let response: OpaquePointer?
        switch reply {
        case .json(_, let text):
            response = Self.buffer(Data(text.utf8), type: "application/json")
        case .empty:
            response = Self.buffer(Data(), type: "application/json")
        case .bytes(_, let type, let data):
            response = Self.buffer(data, type: type)
        case .huge(let bytes):
            let body = Unmanaged.passRetained(HugeJSONBody(total: bytes, context: self)).toOpaque()
            response = MHD_create_response_from_callback(
                UInt64.max, 64 * 1024,
                { cls, position, buffer, max in
                    guard let cls, let buffer else { return MHDReader.endWithError }
                    return Unmanaged<HugeJSONBody>.fromOpaque(cls).takeUnretainedValue()
                        .read(at: position, into: buffer, max: max)
                },
                body,
                { cls in if let cls { Unmanaged<HugeJSONBody>.fromOpaque(cls).release() } })
            if response == nil { Unmanaged<HugeJSONBody>.fromOpaque(body).release() }
            if let response { _ = MHD_add_response_header(response, "Content-Type", "application/json") }
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        return MHD_queue_response(connection, reply.status, response)
    }

    private static func buffer(_ data: Data, type: String) -> OpaquePointer? {
        var bytes = [UInt8](data)
        let response = bytes.withUnsafeMutableBytes { raw in
            // MUST_COPY: MHD keeps its own copy, the Swift array may go.
            MHD_create_response_from_buffer(raw.count, raw.baseAddress, .RESPMEM_MUST_COPY)
        }
        if let response { _ = MHD_add_response_header(response, "Content-Type", type) }
        return response
    }
}

/// A request's body as it arrives; only its connection's thread touches it.
final class RequestBodyBuffer {
    private(set) var data = Data()
    private(set) var overflowed = false

    func append(_ bytes: UnsafePointer<CChar>, count: Int, limit: Int) {
        guard !overflowed else { return }
        guard data.count + count <= limit else {
            overflowed = true
            data = Data()
            return
        }
        bytes.withMemoryRebound(to: UInt8.self, capacity: count) { data.append($0, count: count) }
    }
}

/// The huge fault's body: a JSON envelope that opens a string and fills it for `total` bytes.
final class HugeJSONBody {
    private static let head = Array(#"{"code":200,"name":"OK","message":"OK","data":""#.utf8)
    let total: UInt64
    let context: OperatorHTTPContext

    init(total: UInt64, context: OperatorHTTPContext) {
        self.total = total
        self.context = context
    }

    func read(at position: UInt64, into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        guard !context.isStopping else { return MHDReader.endWithError }
        guard position < total else { return MHDReader.endOfStream }
        let n = Int(min(UInt64(max), total - position))
        memset(buffer, 0x78, n)
        if position < UInt64(Self.head.count) {
            let offset = Int(position)
            let count = min(n, Self.head.count - offset)
            for i in 0..<count { buffer.storeBytes(of: Self.head[offset + i], toByteOffset: i, as: UInt8.self) }
        }
        return n
    }
}

/// A started MHD daemon for the operator; dropping it stops the daemon (joining every connection thread).
private struct OperatorDaemon: ~Copyable {
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
