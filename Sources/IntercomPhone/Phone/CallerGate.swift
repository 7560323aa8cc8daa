import Synchronization
import IntercomBase

/// The `CallerDirectory` in force, shared between the engine (which builds it from the config
/// and replaces it on SIGHUP) and the phone thread (which refuses impostors and, under
/// `unknown_callers = reject`, strangers with a stateless 403 before liblinphone builds a call).
///
/// Why before liblinphone: a call object costs its thread about 9 ms (media streams, ports, a
/// row in its call history, fsync), so a scan at 50 INVITEs a second saturated it, took every
/// call slot (the panel's own call got "486 Busy here") and grew the history file without end.
public final class CallerGate: Sendable {
    private let directory: Mutex<CallerDirectory>

    public init(_ directory: CallerDirectory) {
        self.directory = Mutex(directory)
    }

    public func update(_ fresh: CallerDirectory) {
        directory.withLock { $0 = fresh }
    }

    public func identify(from: String, contactHost: String?, source: String?) -> CallerVerdict {
        directory.withLock { $0.identify(from: from, contactHost: contactHost, source: source) }
    }

    /// Whether requests from `source` (a panel's, the registrar's or proxy's address) reach liblinphone
    /// whatever they are; a stranger's do only inside a dialog (`SIPStrangerScreen`).
    public func trusts(source: String?) -> Bool {
        directory.withLock { $0.isKnownSource(source) }
    }

    /// The panels at address `source` (`CallerDirectory.panels(at:)`): the panels' syslog knows its
    /// senders with the directory SIP uses, so both know a panel the same way.
    public func panels(at source: String?) -> [String] {
        directory.withLock { $0.panels(at: source) }
    }

    /// Whether a call with this verdict is refused before it rings.
    public func refuses(_ verdict: CallerVerdict) -> Bool {
        directory.withLock { $0.refuses(verdict) }
    }

    /// The verdict when the call is refused before it rings, nil when it may ring.
    public func refusal(from: String, contactHost: String?, source: String?) -> CallerVerdict? {
        directory.withLock { directory in
            let verdict = directory.identify(from: from, contactHost: contactHost, source: source)
            return directory.refuses(verdict) ? verdict : nil
        }
    }
}
