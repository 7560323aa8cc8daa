import Foundation
import IntercomCore
import Synchronization
import IntercomBase

/// `daemon --events json`: one JSON line per event on stdout. When stdout's reader leaves
/// (`… | head -1`, a journald restart) the printer stops for good and says so once on stderr;
/// on other errors (a full disk) it drops that line and tries the next. Calls, hooks and the
/// journal never wait on or die of the event stream.
public final class EventPrinter: Sendable {
    private let logger: Logger
    private let stopped = Mutex(false)

    public init(logger: Logger) { self.logger = logger }

    public func print(_ line: String) {
        guard !stopped.withLock({ $0 }) else { return }
        guard let code = StandardStream.output.write(line: line) else { return }
        if code == EPIPE {
            let first = stopped.withLock { was in
                defer { was = true }
                return !was
            }
            if first { logger.warning("stdout was closed (broken pipe): no more events are printed; calls go on") }
        }
    }
}
