#if canImport(Glibc)
import Glibc
#endif

extension Duration {
    /// This long as poll()'s timeout: milliseconds rounded up, so a poll never ends before it; 0
    /// when nothing is left.
    package var pollMilliseconds: Int32 {
        guard self > .zero else { return 0 }
        let (seconds, attoseconds) = components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}

/// One descriptor waited for until a deadline, for the readers and writers that keep their own
/// (the control socket's client, the site's libpq connection).
package enum PollWait {
    /// Whether `fd` became ready for `events` before `deadline`; an interrupted poll waits on. A poll
    /// that fails counts as ready: the caller's next read or write says what broke, which is truer
    /// than "did not answer".
    package static func ready(_ fd: Int32, events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, left.pollMilliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }
        }
    }
}
