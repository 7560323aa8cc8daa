/// One `HTTPClient` as the event loop sees it: its easy handle, which keeps the client's Digest
/// state between requests, the transfer running on it and the ones queued behind it. Requests of
/// one client run one at a time, in order (what a panel's tiny web server prefers); requests of
/// different clients run side by side. Touched on the loop thread only.
final class CurlChannel {
    let id: UInt64
    /// Created with the channel's first transfer, on the loop thread; cleaned up with the channel.
    var easy: CurlEasyHandle?
    var current: CurlTransfer?
    var pending: [TransferOrder] = []
    /// The client is gone; the channel goes once its last transfer ended.
    var closing = false

    init(id: UInt64) { self.id = id }

    var isIdle: Bool { current == nil && pending.isEmpty }

    /// The next queued order, if any; cancelled ones are handed back to be finished as cancelled.
    func takeNext(dropping cancelled: (TransferOrder) -> Void) -> TransferOrder? {
        while !pending.isEmpty {
            let order = pending.removeFirst()
            if order.cancel.isCancelled { cancelled(order); continue }
            return order
        }
        return nil
    }
}
