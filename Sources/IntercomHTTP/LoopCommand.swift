/// The mailbox messages of the event loop.
enum LoopCommand: Sendable {
    case start(TransferOrder)
    /// The caller's task was cancelled: abort the transfer now, or drop it from the queue.
    case cancel(transfer: UInt64, channel: UInt64)
    /// The `HTTPClient` is gone: its easy handle is cleaned up once its last transfer ends.
    case close(channel: UInt64)
    /// The loop itself is gone: every transfer ends cancelled and the thread returns.
    case stop
}
