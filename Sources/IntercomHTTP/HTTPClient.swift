import Foundation
import IntercomBase

/// libcurl transfers behind `async` functions, run by an `HTTPEventLoop` (the process's shared
/// one unless told otherwise), so a client costs no thread of its own.
///
/// One easy handle per client keeps the Digest state between requests, and the loop's connection
/// cache keeps the TCP (and TLS) connection. A client's requests run one at a time, in order;
/// different clients' requests run side by side.
public final class HTTPClient: Sendable {
    public let configuration: HTTPClientConfiguration
    /// The caller's name for it (a panel's name, `NAME.alarms` for its stream): for a debugger or a
    /// log line of the caller's; never put in an error.
    public let label: String
    /// The loop its transfers run on; a panel's alarm stream runs its own client on the same one.
    public let loop: HTTPEventLoop
    private let channel: UInt64

    public init(configuration: HTTPClientConfiguration, label: String = "panel",
                loop: HTTPEventLoop? = nil) throws(HTTPError) {
        self.configuration = configuration
        self.label = label
        if let loop {
            self.loop = loop
        } else {
            self.loop = try HTTPEventLoop.shared()
        }
        self.channel = self.loop.nextID()
    }

    deinit { loop.post(.close(channel: channel)) }

    /// GET `url`, buffering the body up to `maxBodyBytes` (default from the configuration).
    public func get(_ url: String, timeout: Duration? = nil, maxBodyBytes: Int? = nil)
        async throws(HTTPError) -> HTTPResponse
    {
        let request = HTTPRequest(
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
        let request = HTTPRequest(
            url: url, total: timeout ?? configuration.timeout,
            idle: nil, cap: maxBodyBytes ?? configuration.maxBodyBytes, body: body,
            // An empty value removes a header curl would add itself (`Expect:`).
            headers: headers.map { $0.1.isEmpty ? "\($0.0):" : "\($0.0): \($0.1)" })
        return try await run(request, sink: nil, onOpen: nil)
    }

    /// GET `url` and hand a 2xx body to `onChunk` as it arrives, until the server ends it,
    /// the connection drops, nothing arrives for `idleTimeout`, or the task is cancelled.
    /// `onOpen` fires once the final response headers are in, before any body bytes. `onChunk`
    /// returning false stops the transfer (the chunk could not be kept: a full disk).
    /// A non-2xx response is buffered (capped) and returned like `get` does.
    /// `headers`: extra request headers (name, value), e.g. a `Range` to continue a download.
    /// `receiveBuffer`: bytes read from the socket at once (a file download asks more than curl's 16 kB).
    public func stream(
        _ url: String,
        headers: [(String, String)] = [],
        idleTimeout: Duration,
        receiveBuffer: Int? = nil,
        onOpen: @escaping @Sendable (Int) -> Void = { _ in },
        onChunk: @escaping @Sendable (Data) -> Bool
    ) async throws(HTTPError) -> HTTPResponse {
        let request = HTTPRequest(url: url, total: nil, idle: idleTimeout, cap: configuration.maxBodyBytes,
                                  headers: headers.map { "\($0.0): \($0.1)" }, receiveBuffer: receiveBuffer)
        return try await run(request, sink: onChunk, onOpen: onOpen)
    }

    private func run(
        _ request: HTTPRequest,
        sink: (@Sendable (Data) -> Bool)?,
        onOpen: (@Sendable (Int) -> Void)?
    ) async throws(HTTPError) -> HTTPResponse {
        let cancel = CancelFlag()
        let id = loop.nextID()
        let (loop, channel, configuration) = (self.loop, self.channel, self.configuration)
        let result: TransferResult = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                loop.post(.start(TransferOrder(
                    id: id, channel: channel, configuration: configuration, request: request,
                    cancel: cancel, sink: sink, onOpen: onOpen, completion: continuation)))
            }
        } onCancel: {
            // The flag covers a cancel that overtakes the start; the command aborts a running one.
            cancel.cancel()
            loop.post(.cancel(transfer: id, channel: channel))
        }
        return try result.get()
    }
}
