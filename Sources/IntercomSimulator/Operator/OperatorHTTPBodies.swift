import CMicroHTTPD
import Foundation

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
final class HugeJSONBody: StreamedBody {
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
