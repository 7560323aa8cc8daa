import CMicroHTTPD
import Foundation
import Synchronization

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
