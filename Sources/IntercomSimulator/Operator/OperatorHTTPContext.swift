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
        for name in ["Authorization", "Accept-Language", "X-System-Info", "Content-Type", "Range"] {
            if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) {
                headers[name.lowercased()] = String(cString: value)
            }
        }
        let token = MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, "token").map { String(cString: $0) }
        let path = String(url.prefix { $0 != "?" })
        let request = OperatorRequest(method: method, path: path, headers: headers, cameraToken: token, body: buffer.data,
                                      bodyTooLarge: buffer.overflowed)
        return queue(handler(request), on: connection)
    }

    private func queue(_ reply: OperatorReply, on connection: OpaquePointer) -> MHD_Result {
        let response: OpaquePointer?
        switch reply {
        case .json(_, let text):
            response = MHDResponse.buffer(Data(text.utf8), type: "application/json")
        case .empty:
            response = MHDResponse.buffer(Data(), type: "application/json")
        case .bytes(_, let type, let data):
            response = MHDResponse.buffer(data, type: type)
        case .partial(let type, let data, let range):
            response = MHDResponse.buffer(data.subdata(in: range.lowerBound..<(range.upperBound + 1)), type: type)
            if let response {
                _ = MHD_add_response_header(response, "Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(data.count)")
                _ = MHD_add_response_header(response, "Accept-Ranges", "bytes")
            }
        case .huge(let bytes):
            response = MHDResponse.stream(HugeJSONBody(total: bytes, context: self), blockSize: 64 * 1024,
                                          type: "application/json")
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        return MHD_queue_response(connection, reply.status, response)
    }

}
