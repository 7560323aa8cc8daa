import CCurl
import CCurlShim
import Dispatch
import Foundation
import Synchronization
import IntercomBase

/// Blocking libcurl transfers behind `async` functions.
///
/// One easy handle per panel keeps the TCP (and TLS) connection and the Digest
/// state between requests. Transfers are blocking, so they run on a private serial
/// queue instead of the cooperative pool; the mutex makes the handle's single
/// ownership explicit to the compiler.
public final class HTTPClient: Sendable {
    public let configuration: HTTPClientConfiguration
    private let handle: Mutex<CurlEasyHandle>
    private let queue: DispatchQueue

    public init(configuration: HTTPClientConfiguration, label: String = "panel") throws(HTTPError) {
        guard let easy = CurlEasyHandle() else {
            throw .setup(CurlFailure(code: CURLE_FAILED_INIT, message: "curl_easy_init failed"))
        }
        self.configuration = configuration
        self.handle = Mutex(easy)
        self.queue = DispatchQueue(label: "intercom.http.\(label)")
    }

    /// GET `url`, buffering the body up to `maxBodyBytes` (default from the configuration).
    public func get(_ url: String, timeout: Duration? = nil, maxBodyBytes: Int? = nil)
        async throws(HTTPError) -> HTTPResponse
    {
        let request = Request(
            url: url, total: timeout ?? configuration.timeout,
            idle: nil, cap: maxBodyBytes ?? configuration.maxBodyBytes)
        return try await run(request, sink: nil, onOpen: nil)
    }

    /// POST `body` to `url` with extra request `headers` (name, value), buffering the answer up to
    /// `maxBodyBytes`. Header values may hold secrets (a bearer token): they are never logged or
    /// put in an error.
    public func post(_ url: String, body: Data, headers: [(String, String)] = [], timeout: Duration? = nil,
                     maxBodyBytes: Int? = nil) async throws(HTTPError) -> HTTPResponse
    {
        let request = Request(
            url: url, total: timeout ?? configuration.timeout,
            idle: nil, cap: maxBodyBytes ?? configuration.maxBodyBytes, body: body,
            // An empty value removes a header curl would add itself (`Expect:`).
            headers: headers.map { $0.1.isEmpty ? "\($0.0):" : "\($0.0): \($0.1)" })
        return try await run(request, sink: nil, onOpen: nil)
    }

    /// GET `url` and hand a 2xx body to `onChunk` as it arrives, until the server ends it,
    /// the connection drops, nothing arrives for `idleTimeout`, or the task is cancelled.
    /// `onOpen` fires once the final response headers are in, before any body bytes.
    /// A non-2xx response is buffered (capped) and returned like `get` does.
    public func stream(
        _ url: String,
        idleTimeout: Duration,
        onOpen: @escaping @Sendable (Int) -> Void = { _ in },
        onChunk: @escaping @Sendable (Data) -> Void
    ) async throws(HTTPError) -> HTTPResponse {
        let request = Request(url: url, total: nil, idle: idleTimeout, cap: configuration.maxBodyBytes)
        return try await run(request, sink: onChunk, onOpen: onOpen)
    }

    private struct Request: Sendable {
        let url: String
        let total: Duration?
        let idle: Duration?
        let cap: Int
        /// nil: a GET; else the POST body.
        var body: Data? = nil
        /// Whole `Name: value` lines.
        var headers: [String] = []
    }

    private func run(
        _ request: Request,
        sink: (@Sendable (Data) -> Void)?,
        onOpen: (@Sendable (Int) -> Void)?
    ) async throws(HTTPError) -> HTTPResponse {
        let cancel = CancelFlag()
        let result: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    let outcome = self.handle.withLock { easy in
                        self.perform(request, on: easy.raw, cancel: cancel, sink: sink, onOpen: onOpen)
                    }
                    continuation.resume(returning: outcome)
                }
            }
        } onCancel: {
            cancel.cancel()
        }
        return try result.get()
    }

    /// Runs on `queue` with the handle locked.
    private func perform(
        _ request: Request,
        on easy: UnsafeMutableRawPointer,
        cancel: CancelFlag,
        sink: (@Sendable (Data) -> Void)?,
        onOpen: (@Sendable (Int) -> Void)?
    ) -> Result<HTTPResponse, HTTPError> {
        if cancel.isCancelled { return .failure(.cancelled) }
        let transfer = CurlTransfer(handle: easy, cap: request.cap, cancel: cancel, sink: sink, onOpen: onOpen)
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        return errorBuffer.withUnsafeMutableBufferPointer { errorPtr -> Result<HTTPResponse, HTTPError> in
            let context = Unmanaged.passUnretained(transfer).toOpaque()
            if let failure = configure(easy, request, context: context, errorBuffer: errorPtr.baseAddress) {
                return .failure(.setup(failure))
            }
            // The header list must outlive the transfer; freed (and unset) right after it.
            var headerList: UnsafeMutablePointer<curl_slist>?
            for line in request.headers { headerList = curl_slist_append(headerList, line) }
            defer { curl_slist_free_all(headerList) }
            if let failure = setHeaders(easy, headerList) {
                return .failure(.setup(failure))
            }
            let code = curl_easy_perform(easy)
            _ = intercom_curl_setopt_ptr(easy, CURLOPT_HTTPHEADER, nil)
            // The buffer and the context die with this scope; curl must not keep pointers to them.
            _ = intercom_curl_setopt_ptr(easy, CURLOPT_ERRORBUFFER, nil)
            _ = intercom_curl_setopt_ptr(easy, CURLOPT_WRITEDATA, nil)
            _ = intercom_curl_setopt_ptr(easy, CURLOPT_HEADERDATA, nil)
            _ = intercom_curl_setopt_ptr(easy, CURLOPT_XFERINFODATA, nil)

            if code == CURLE_OK {
                var status = 0
                _ = intercom_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                var typePtr: UnsafePointer<CChar>?
                var contentType: String?
                if intercom_curl_getinfo_str(easy, CURLINFO_CONTENT_TYPE, &typePtr) == CURLE_OK,
                   let typePtr {
                    contentType = String(cString: typePtr)
                }
                return .success(HTTPResponse(status: status, contentType: contentType, body: transfer.body,
                                             offeredAuth: transfer.offeredAuth))
            }
            let message = errorPtr.baseAddress.map { String(cString: $0) } ?? ""
            let failure = CurlFailure(
                code: code,
                message: message.isEmpty ? String(cString: curl_easy_strerror(code)) : message)
            if cancel.isCancelled { return .failure(.cancelled) }
            switch code {
            case CURLE_WRITE_ERROR where transfer.exceeded, CURLE_FILESIZE_EXCEEDED:
                return .failure(.tooLarge(limit: request.cap))
            case CURLE_OPERATION_TIMEDOUT:
                return .failure(.timedOut(failure))
            default:
                return .failure(.transfer(failure))
            }
        }
    }

    /// Sets every option on every request, so nothing leaks from a previous request
    /// (a stream's missing total timeout, say) while the connection cache survives.
    private func configure(
        _ easy: UnsafeMutableRawPointer,
        _ request: Request,
        context: UnsafeMutableRawPointer,
        errorBuffer: UnsafeMutablePointer<CChar>?
    ) -> CurlFailure? {
        let c = configuration
        var results: [(String, CURLcode)] = []
        func set(_ name: String, _ rc: CURLcode) { results.append((name, rc)) }

        set("errorbuffer", intercom_curl_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        set("url", intercom_curl_setopt_str(easy, CURLOPT_URL, request.url))
        set("protocols", intercom_curl_setopt_str(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        if let body = request.body {
            set("post", intercom_curl_setopt_long(easy, CURLOPT_POST, 1))
            set("postfieldsize", intercom_curl_setopt_long(easy, CURLOPT_POSTFIELDSIZE, body.count))
            // COPYPOSTFIELDS: curl keeps its own copy, so no pointer into `body` outlives this call.
            var bytes = [UInt8](body)
            bytes.append(0)  // never an empty buffer (a nil pointer would mean "read from the callback")
            set("copypostfields", bytes.withUnsafeMutableBytes { intercom_curl_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
        } else {
            set("httpget", intercom_curl_setopt_long(easy, CURLOPT_HTTPGET, 1))
        }
        set("nosignal", intercom_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        set("followlocation", intercom_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))
        set("useragent", intercom_curl_setopt_str(easy, CURLOPT_USERAGENT, c.userAgent))
        // Digest alone unless the config allows Basic: with Basic allowed, whoever answers on an
        // http:// path can ask for it and read the password. With Basic and Digest allowed curl
        // still waits for the challenge (nothing up front) and prefers Digest when both are offered.
        let methods = c.auth == .basic ? INTERCOM_CURLAUTH_BASIC | INTERCOM_CURLAUTH_DIGEST : INTERCOM_CURLAUTH_DIGEST
        set("httpauth", intercom_curl_setopt_ulong(easy, CURLOPT_HTTPAUTH, methods))
        if c.user.isEmpty {
            // No credentials (the operator API authorises with a header): curl answers no challenge.
            set("username", intercom_curl_setopt_ptr(easy, CURLOPT_USERNAME, nil))
            set("password", intercom_curl_setopt_ptr(easy, CURLOPT_PASSWORD, nil))
        } else {
            set("username", intercom_curl_setopt_str(easy, CURLOPT_USERNAME, c.user))
            set("password", intercom_curl_setopt_str(easy, CURLOPT_PASSWORD, c.password))
        }
        set("ssl_verifypeer", intercom_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, c.insecure ? 0 : 1))
        set("ssl_verifyhost", intercom_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, c.insecure ? 0 : 2))
        if let caFile = c.caFile {
            set("cainfo", intercom_curl_setopt_str(easy, CURLOPT_CAINFO, caFile))
        }
        set("connecttimeout", intercom_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, c.connectTimeout.curlMilliseconds))
        set("timeout", intercom_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, request.total?.curlMilliseconds ?? 0))
        if let idle = request.idle {
            // "Less than 1 byte/s for N s" is curl's read timeout.
            set("low_speed_limit", intercom_curl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1))
            set("low_speed_time", intercom_curl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, idle.curlMilliseconds / 1000)))
            set("maxfilesize", intercom_curl_setopt_long(easy, CURLOPT_MAXFILESIZE, 0))
        } else {
            set("low_speed_limit", intercom_curl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 0))
            set("low_speed_time", intercom_curl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, 0))
            // Refuses early when Content-Length already says too much; the write callback covers chunked bodies.
            set("maxfilesize", intercom_curl_setopt_long(easy, CURLOPT_MAXFILESIZE, request.cap))
        }

        set("writefunction", intercom_curl_setopt_func(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length)
            return transfer.write(bytes) ? length : 0
        })
        set("writedata", intercom_curl_setopt_ptr(easy, CURLOPT_WRITEDATA, context))
        set("headerfunction", intercom_curl_setopt_func(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let length = size * count
            guard let context else { return length }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            transfer.header(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length))
            return length
        })
        set("headerdata", intercom_curl_setopt_ptr(easy, CURLOPT_HEADERDATA, context))
        // The progress callback is the only hook curl calls while a stream sits idle,
        // so cancellation is checked there.
        set("noprogress", intercom_curl_setopt_long(easy, CURLOPT_NOPROGRESS, 0))
        set("xferinfofunction", intercom_curl_setopt_xferinfo(easy) { context, _, _, _, _ in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.cancel.isCancelled ? 1 : 0
        })
        set("xferinfodata", intercom_curl_setopt_ptr(easy, CURLOPT_XFERINFODATA, context))

        guard let (name, rc) = results.first(where: { $0.1 != CURLE_OK }) else { return nil }
        return CurlFailure(code: rc, message: "curl option \(name): \(String(cString: curl_easy_strerror(rc)))")
    }

    /// The request's extra headers, or none (a previous request's list is never reused).
    private func setHeaders(_ easy: UnsafeMutableRawPointer, _ list: UnsafeMutablePointer<curl_slist>?) -> CurlFailure? {
        let rc = intercom_curl_setopt_ptr(easy, CURLOPT_HTTPHEADER, list.map { UnsafeMutableRawPointer($0) })
        guard rc != CURLE_OK else { return nil }
        return CurlFailure(code: rc, message: "curl option httpheader: \(String(cString: curl_easy_strerror(rc)))")
    }
}
