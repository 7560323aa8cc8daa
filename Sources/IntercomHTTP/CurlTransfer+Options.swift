import CCurl
import CCurlShim
import Foundation

extension CurlTransfer {
    /// Sets every option on every request, so nothing leaks from a previous request
    /// (a stream's missing total timeout, say) while the connection cache survives.
    func applyOptions() -> CurlFailure? {
        let easy = handle
        let request = order.request
        let c = order.configuration
        let context = Unmanaged.passUnretained(self).toOpaque()
        var results: [(String, CURLcode)] = []
        func set(_ name: String, _ rc: CURLcode) { results.append((name, rc)) }

        set("errorbuffer", intercom_curl_setopt_ptr(curl.table, easy, CURLOPT_ERRORBUFFER, errorBuffer))
        // The request's own list, or none: a previous request's list is never reused.
        set("httpheader", intercom_curl_setopt_ptr(curl.table, easy, CURLOPT_HTTPHEADER, headerList.map { UnsafeMutableRawPointer($0) }))
        set("url", intercom_curl_setopt_str(curl.table, easy, CURLOPT_URL, request.url))
        set("protocols", intercom_curl_setopt_str(curl.table, easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        if let body = request.body {
            set("post", intercom_curl_setopt_long(curl.table, easy, CURLOPT_POST, 1))
            set("postfieldsize", intercom_curl_setopt_long(curl.table, easy, CURLOPT_POSTFIELDSIZE, body.count))
            // COPYPOSTFIELDS: curl keeps its own copy, so no pointer into `body` outlives this call.
            var bytes = [UInt8](body)
            bytes.append(0)  // never an empty buffer (a nil pointer would mean "read from the callback")
            set("copypostfields", bytes.withUnsafeMutableBytes { intercom_curl_setopt_ptr(curl.table, easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
        } else {
            set("httpget", intercom_curl_setopt_long(curl.table, easy, CURLOPT_HTTPGET, 1))
        }
        set("nosignal", intercom_curl_setopt_long(curl.table, easy, CURLOPT_NOSIGNAL, 1))
        set("followlocation", intercom_curl_setopt_long(curl.table, easy, CURLOPT_FOLLOWLOCATION, 0))
        set("useragent", intercom_curl_setopt_str(curl.table, easy, CURLOPT_USERAGENT, c.userAgent))
        // Digest alone unless the config allows Basic: with Basic allowed, whoever answers on an
        // http:// path can ask for it and read the password. With Basic and Digest allowed curl
        // still waits for the challenge (nothing up front) and prefers Digest when both are offered.
        let methods = c.auth == .basic ? INTERCOM_CURLAUTH_BASIC | INTERCOM_CURLAUTH_DIGEST : INTERCOM_CURLAUTH_DIGEST
        set("httpauth", intercom_curl_setopt_ulong(curl.table, easy, CURLOPT_HTTPAUTH, methods))
        if c.user.isEmpty {
            // No credentials (the operator API authorises with a header): curl answers no challenge.
            set("username", intercom_curl_setopt_ptr(curl.table, easy, CURLOPT_USERNAME, nil))
            set("password", intercom_curl_setopt_ptr(curl.table, easy, CURLOPT_PASSWORD, nil))
        } else {
            set("username", intercom_curl_setopt_str(curl.table, easy, CURLOPT_USERNAME, c.user))
            set("password", intercom_curl_setopt_str(curl.table, easy, CURLOPT_PASSWORD, c.password))
        }
        set("ssl_verifypeer", intercom_curl_setopt_long(curl.table, easy, CURLOPT_SSL_VERIFYPEER, c.insecure ? 0 : 1))
        set("ssl_verifyhost", intercom_curl_setopt_long(curl.table, easy, CURLOPT_SSL_VERIFYHOST, c.insecure ? 0 : 2))
        if let caFile = c.caFile {
            set("cainfo", intercom_curl_setopt_str(curl.table, easy, CURLOPT_CAINFO, caFile))
        }
        // Set on every transfer: an easy handle is reused, and the last one's size would otherwise stay.
        set("buffersize", intercom_curl_setopt_long(curl.table, easy, CURLOPT_BUFFERSIZE, request.receiveBuffer ?? Int(CURL_MAX_WRITE_SIZE)))
        set("connecttimeout", intercom_curl_setopt_long(curl.table, easy, CURLOPT_CONNECTTIMEOUT_MS, c.connectTimeout.curlMilliseconds))
        set("timeout", intercom_curl_setopt_long(curl.table, easy, CURLOPT_TIMEOUT_MS, request.total?.curlMilliseconds ?? 0))
        if let idle = request.idle {
            // "Less than 1 byte/s for N s" is curl's read timeout.
            set("low_speed_limit", intercom_curl_setopt_long(curl.table, easy, CURLOPT_LOW_SPEED_LIMIT, 1))
            set("low_speed_time", intercom_curl_setopt_long(curl.table, easy, CURLOPT_LOW_SPEED_TIME, max(1, idle.curlMilliseconds / 1000)))
            set("maxfilesize", intercom_curl_setopt_long(curl.table, easy, CURLOPT_MAXFILESIZE, 0))
        } else {
            set("low_speed_limit", intercom_curl_setopt_long(curl.table, easy, CURLOPT_LOW_SPEED_LIMIT, 0))
            set("low_speed_time", intercom_curl_setopt_long(curl.table, easy, CURLOPT_LOW_SPEED_TIME, 0))
            // Refuses early when Content-Length already says too much; the write callback covers chunked bodies.
            set("maxfilesize", intercom_curl_setopt_long(curl.table, easy, CURLOPT_MAXFILESIZE, request.cap))
        }

        set("writefunction", intercom_curl_setopt_func(curl.table, easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length)
            return transfer.write(bytes) ? length : 0
        })
        set("writedata", intercom_curl_setopt_ptr(curl.table, easy, CURLOPT_WRITEDATA, context))
        set("headerfunction", intercom_curl_setopt_func(curl.table, easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let length = size * count
            guard let context else { return length }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            transfer.header(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length))
            return length
        })
        set("headerdata", intercom_curl_setopt_ptr(curl.table, easy, CURLOPT_HEADERDATA, context))
        // Cancellation takes the handle out of the multi handle on the loop thread, so no progress
        // callback has to poll for it.
        set("noprogress", intercom_curl_setopt_long(curl.table, easy, CURLOPT_NOPROGRESS, 1))

        guard let (name, rc) = results.first(where: { $0.1 != CURLE_OK }) else { return nil }
        return CurlFailure(code: rc, message: "curl option \(name): \(curl.text(rc))")
    }

    /// After the transfer: the buffer, the header list and `self` die with this object, so curl
    /// must keep no pointer to them in the easy handle it keeps for the client's next request.
    func detachOptions() {
        _ = intercom_curl_setopt_ptr(curl.table, handle, CURLOPT_HTTPHEADER, nil)
        _ = intercom_curl_setopt_ptr(curl.table, handle, CURLOPT_ERRORBUFFER, nil)
        _ = intercom_curl_setopt_ptr(curl.table, handle, CURLOPT_WRITEDATA, nil)
        _ = intercom_curl_setopt_ptr(curl.table, handle, CURLOPT_HEADERDATA, nil)
    }
}
