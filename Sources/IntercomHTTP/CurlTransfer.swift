import CCurl
import CCurlShim
import Foundation

/// Per-transfer state that curl's C callbacks reach through their `void *` argument.
/// Lives on the event loop thread only, held by its `CurlChannel` while the easy handle sits in
/// the multi handle, so the unretained pointer curl keeps is valid for every callback.
final class CurlTransfer {
    let order: TransferOrder
    let handle: UnsafeMutableRawPointer
    let curl: CurlLibrary.Functions
    /// curl writes its error text here; allocated here because it must outlive every callback.
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// The request's extra headers; curl reads the list during the transfer, freed in `release`.
    var headerList: UnsafeMutablePointer<curl_slist>?

    var body = Data()
    var received = 0
    var exceeded = false
    /// Status of the header block seen last; curl passes several (401 then 200) during auth.
    var status = 0
    /// Every scheme a challenge named, so a refusal can say which one the server wanted.
    var offeredAuth: HTTPAuthMethods = []

    init(order: TransferOrder, handle: UnsafeMutableRawPointer, curl: CurlLibrary.Functions) {
        self.order = order
        self.handle = handle
        self.curl = curl
        let size = Int(CURL_ERROR_SIZE) + 1
        errorBuffer = .allocate(capacity: size)
        errorBuffer.initialize(repeating: 0, count: size)
        for line in order.request.headers { headerList = curl.c.slist_append(headerList, line) }
    }

    deinit {
        curl.c.slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    var cap: Int { order.request.cap }

    /// Returns false to make curl abort with CURLE_WRITE_ERROR.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if order.cancel.isCancelled { return false }
        if let sink = order.sink, (200..<300).contains(status) {
            // A stream never ends, so only the cap of the non-stream case applies to it per chunk.
            return sink(Data(bytes))
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
        guard intercom_curl_getinfo_long(curl.table, handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK else { return }
        status = code
        // The body of an earlier block (the 401 challenge) is not the answer.
        body.removeAll(keepingCapacity: true)
        received = 0
        if (200..<300).contains(code), let onOpen = order.onOpen { onOpen(code) }
    }

    /// What the finished transfer means for the caller, from curl's result code.
    func outcome(_ code: CURLcode) -> TransferResult {
        if code == CURLE_OK {
            var status = 0
            _ = intercom_curl_getinfo_long(curl.table, handle, CURLINFO_RESPONSE_CODE, &status)
            var typePtr: UnsafePointer<CChar>?
            var contentType: String?
            if intercom_curl_getinfo_str(curl.table, handle, CURLINFO_CONTENT_TYPE, &typePtr) == CURLE_OK, let typePtr {
                contentType = String(cString: typePtr)
            }
            return .success(HTTPResponse(status: status, contentType: contentType, body: body, offeredAuth: offeredAuth))
        }
        if order.cancel.isCancelled { return .failure(.cancelled) }
        let message = String(cString: errorBuffer)
        let failure = CurlFailure(
            code: code,
            message: message.isEmpty ? curl.text(code) : message)
        switch code {
        case CURLE_WRITE_ERROR where exceeded, CURLE_FILESIZE_EXCEEDED:
            return .failure(.tooLarge(limit: cap))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(.timedOut(failure))
        default:
            return .failure(.transfer(failure))
        }
    }
}
