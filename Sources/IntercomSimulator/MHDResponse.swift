import CMicroHTTPD
import Foundation

/// A body MHD pulls in blocks (an endless stream, a huge answer): MHD holds one retained
/// reference and gives it back through the free callback. Only the connection's own thread reads.
protocol StreamedBody: AnyObject {
    /// Up to `max` bytes at `position`; 0 = ask again, `MHDReader.endOfStream`/`.endWithError` end it.
    func read(at position: UInt64, into buffer: UnsafeMutableRawPointer, max: Int) -> Int
}

/// The two ways the simulators answer through libmicrohttpd, written once for the panel and the operator.
enum MHDResponse {
    /// A copy of `data` (MHD keeps its own, the Swift array may go).
    static func buffer(_ data: Data, type: String) -> OpaquePointer? {
        var bytes = [UInt8](data)
        let response = bytes.withUnsafeMutableBytes { raw in
            MHD_create_response_from_buffer(raw.count, raw.baseAddress, .RESPMEM_MUST_COPY)
        }
        if let response { _ = MHD_add_response_header(response, "Content-Type", type) }
        return response
    }

    /// A body of unknown length, read in `blockSize` pieces as the client takes them.
    static func stream(_ body: some StreamedBody, blockSize: Int, type: String) -> OpaquePointer? {
        let context = Unmanaged.passRetained(body as AnyObject).toOpaque()
        let response = MHD_create_response_from_callback(
            UInt64.max, blockSize,
            { cls, position, buffer, max in
                guard let cls, let buffer,
                      let body = Unmanaged<AnyObject>.fromOpaque(cls).takeUnretainedValue() as? any StreamedBody else {
                    return MHDReader.endWithError
                }
                return body.read(at: position, into: buffer, max: max)
            },
            context,
            { cls in if let cls { Unmanaged<AnyObject>.fromOpaque(cls).release() } })
        guard let response else {
            Unmanaged<AnyObject>.fromOpaque(context).release()
            return nil
        }
        _ = MHD_add_response_header(response, "Content-Type", type)
        return response
    }
}
