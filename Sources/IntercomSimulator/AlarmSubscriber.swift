import Foundation
import Synchronization

/// The pending bytes of one open `alarmchangestate_cgi` response.
/// The MHD content reader drains it from the connection's thread.
final class AlarmSubscriber: Sendable {
    private let pending = Mutex(Data())

    func push(_ line: String) {
        pending.withLock { $0.append(contentsOf: Array(line.utf8)) }
    }

    /// Moves up to `max` bytes into `buffer`; 0 when nothing is pending.
    func drain(into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        pending.withLock { data in
            let n = min(max, data.count)
            guard n > 0 else { return 0 }
            data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: n)
            data.removeFirst(n)
            return n
        }
    }
}
