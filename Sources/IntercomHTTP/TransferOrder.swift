import Foundation

/// What finishes a transfer: its response, or the typed error the caller throws.
typealias TransferResult = Result<HTTPResponse, HTTPError>

/// A request on its way from a caller's task to the event loop thread. Sendable by construction:
/// the loop builds its own non-Sendable `CurlTransfer` from it.
struct TransferOrder: Sendable {
    /// Unique within the loop; what a cancellation names.
    let id: UInt64
    /// The `HTTPClient` that asked: its transfers run one at a time on its easy handle.
    let channel: UInt64
    let configuration: HTTPClientConfiguration
    let request: HTTPRequest
    let cancel: CancelFlag
    /// Streaming sink for a 2xx body; nil buffers the body instead. Called on the loop thread; false
    /// stops the transfer.
    let sink: (@Sendable (Data) -> Bool)?
    /// Called on the loop thread once the final 2xx headers are in.
    let onOpen: (@Sendable (Int) -> Void)?
    /// Resumed exactly once, on the loop thread.
    let completion: CheckedContinuation<TransferResult, Never>
}
