import Foundation

/// The lines waiting to go to one control client, bounded in bytes. A client that stops reading
/// fills its own outbox and is dropped; the events and replies of everyone else never wait on it.
/// Pictures do not queue: each subscription has one slot holding its newest frame, which a newer
/// one replaces (a slow screen misses frames and stays attached).
final class Outbox: @unchecked Sendable {
    // All state under `condition`.
    private let condition = NSCondition()
    private var queue: [[UInt8]] = []
    private var slots: [String: [UInt8]] = [:]
    /// Slot keys in the order their frames came, so every subscription gets its turn.
    private var slotOrder: [String] = []
    /// Frames a newer one replaced before the writer took them (tests and `status` read it).
    private(set) var framesDropped = 0
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

    /// Puts a frame line into the slot of `key`, replacing a frame still waiting there.
    func offer(key: String, line: String) {
        let data = Array((line + "\n").utf8)
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return }
        if slots.updateValue(data, forKey: key) != nil {
            framesDropped += 1
        } else {
            slotOrder.append(key)
        }
        condition.signal()
    }

    /// Whether the slot of `key` is empty: a frame offered now goes out next (the daemon encodes
    /// a picture only for a screen that took the last one).
    func slotIsFree(_ key: String) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return slots[key] == nil
    }

    /// The next line to write, blocking: replies and events first, then frames; nil once closed.
    /// Lines queued before `close` still come out unless the outbox overflowed.
    func pop() -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && slotOrder.isEmpty && !closed { condition.wait() }
        if queue.isEmpty, !closed, !slotOrder.isEmpty {
            let key = slotOrder.removeFirst()
            return slots.removeValue(forKey: key)
        }
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
