import Dispatch
import Foundation

/// Loads libcurl and starts the process's HTTP loop on a thread of its own while a one-request
/// command reads its config and token: the ~10 ms libcurl's ~30 libraries take to map, bind and
/// initialise overlap with that work instead of following it (DECISIONS.md "export's start").
///
/// Started only once the command's other threads exist: a thread started while the dynamic loader
/// maps libraries waits for it (glibc gives each new thread its TLS under the loader's lock).
/// The command owns the warm-up and waits for it before returning, so no thread outlives it.
public final class HTTPWarmUp: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    /// Starts loading; the first HTTP client made meanwhile waits for the same load (a `static let`).
    public static func start() -> HTTPWarmUp {
        let warmUp = HTTPWarmUp()
        let thread = Thread { [finished = warmUp.finished] in
            // A failure is not lost: the client that needs the loop gets the same error.
            _ = try? HTTPEventLoop.shared()
            finished.signal()
        }
        thread.name = "intercom.warm"
        thread.start()
        return warmUp
    }

    /// Returns when the load is done (at once when a client already waited for it).
    public func wait() { finished.wait() }
}
