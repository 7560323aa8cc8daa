import Foundation

/// The lines waiting to go to one control client, bounded in bytes. A client that stops reading
/// fills its own outbox and is dropped; the events and replies of everyone else never wait on it.
final class Outbox: @unchecked Sendable {
    // All state under `condition`.
    private let condition = NSCondition()
    private var queue: [[UInt8]] = []
    private var bytes = 0
    private var closed = false
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Queues one line; false when the outbox overflowed or is closed (the caller drops the client).
    func push(_ line: String) -> Bool {
        let data = Array((line + "\n").utf8)
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        guard bytes + data.count <= limit else {
            closed = true
            condition.broadcast()
            return false
        }
        queue.append(data)
        bytes += data.count
        condition.signal()
        return true
    }

    /// The next line to write, blocking; nil once closed. Lines queued before `close` still come out
    /// unless the outbox overflowed.
    func pop() -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !closed { condition.wait() }
        guard !queue.isEmpty, bytes <= limit else { return nil }
        let first = queue.removeFirst()
        bytes -= first.count
        return first
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
