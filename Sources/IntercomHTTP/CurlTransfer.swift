import CCurl
import CCurlShim
import Foundation

/// Per-transfer state that curl's C callbacks reach through their `void *` argument.
/// Lives on the stack of `HTTPClient.perform`, which outlives the blocking transfer.
final class CurlTransfer {
    let handle: UnsafeMutableRawPointer
    let cap: Int
    let cancel: CancelFlag
    /// Streaming sink for a 2xx body; nil buffers the body instead.
    let sink: (@Sendable (Data) -> Void)?
    let onOpen: (@Sendable (Int) -> Void)?

    var body = Data()
    var received = 0
    var exceeded = false
    /// Status of the header block seen last; curl passes several (401 then 200) during auth.
    var status = 0
    /// Every scheme a challenge named, so a refusal can say which one the server wanted.
    var offeredAuth: HTTPAuthMethods = []

    init(handle: UnsafeMutableRawPointer, cap: Int, cancel: CancelFlag,
         sink: (@Sendable (Data) -> Void)?, onOpen: (@Sendable (Int) -> Void)?) {
        self.handle = handle
        self.cap = cap
        self.cancel = cancel
        self.sink = sink
        self.onOpen = onOpen
    }

    /// Returns false to make curl abort with CURLE_WRITE_ERROR.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if cancel.isCancelled { return false }
        if let sink, (200..<300).contains(status) {
            // A stream never ends, so only the cap of the non-stream case applies to it per chunk.
            sink(Data(bytes))
            return true
        }
        received += bytes.count
        if received > cap {
            exceeded = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    func header(_ line: UnsafeRawBufferPointer) {
        if line.count > 2, line.count < 4096, line.first == UInt8(ascii: "W") || line.first == UInt8(ascii: "w") {
            offeredAuth.formUnion(HTTPAuthMethods(challengeLine: String(decoding: line, as: UTF8.self)))
        }
        // A bare CRLF ends one header block: the status of this response is final now.
        guard line.count <= 2, line.allSatisfy({ $0 == 0x0D || $0 == 0x0A }) else { return }
        var code = 0
        guard intercom_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK else { return }
        status = code
        // The body of an earlier block (the 401 challenge) is not the answer.
        body.removeAll(keepingCapacity: true)
        received = 0
        if (200..<300).contains(code), let onOpen { onOpen(code) }
    }
}

