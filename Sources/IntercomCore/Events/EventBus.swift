import IntercomBase
/// Hands every event to every subscriber, each through its own unbounded stream, so a slow
/// reader (a stuck control-socket client) never holds up the others or the phone.
public final class EventBus: Sendable {
    private let broadcaster = Broadcaster<IntercomEvent>()

    public init() {}

    public func publish(_ event: IntercomEvent) { broadcaster.yield(event) }

    /// A stream of every event published from now on; it ends when the consumer stops iterating.
    public func subscribe(bufferingNewest limit: Int? = nil) -> AsyncStream<IntercomEvent> {
        broadcaster.subscribe(limit.map { .bufferingNewest($0) } ?? .unbounded)
    }

    /// Ends every subscriber's stream.
    public func finish() { broadcaster.finish() }
}
