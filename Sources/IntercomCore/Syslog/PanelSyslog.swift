import Foundation
import IntercomBase
import IntercomPanel

/// The panels' syslog part: what a datagram on the `[syslog]` socket becomes. A panel is known by
/// the datagram's source address through the directory SIP uses (`CallerGate.panels(at:)`); a
/// datagram from anywhere else is a stranger's, ignored and counted, with one log line per 10 s as
/// SIP's strangers get. A known panel's line is read by `BewardSyslogLine` into the events.
///
/// Syslog is unauthenticated UDP, so what it says is only reported: no event here asks the panel
/// or the phone for anything (docs/SECURITY.md).
struct PanelSyslog {
    /// How long after our own DTMF opening (or a call with the panel) the panel's "Opening door by
    /// DTMF command" line is that opening's confirmation rather than another one.
    static let dtmfConfirmationWindow: TimeInterval = 10

    /// Datagrams from no heard panel's address since the start.
    private(set) var strangers = 0
    private var strangerLog = LogThrottle(every: .seconds(10))
    /// When we last opened each panel's door by DTMF.
    private var ourDTMF: [String: Date] = [:]
    /// When a flat's analogue handset last took each panel's call.
    private var handsetAnswers: [String: Date] = [:]

    /// What the engine knows when a datagram comes.
    struct Context {
        /// The panels at an address (the SIP directory).
        var panelsAt: (String) -> [String]
        /// The panels whose syslog is heard (`IntercomConfig.syslogPanels`).
        var heard: Set<String>
        /// Whether we are in a call with the panel now.
        var inCall: (String) -> Bool
        var now: Date
    }

    /// Our DTMF opening of `panel` (from `reportDoor`), so the panel's own line for it is not a second one.
    mutating func noteOurDTMF(panel: String, at time: Date) {
        ourDTMF[panel] = time
    }

    /// The events a datagram from `source` makes: none for a stranger's, a line no one reads, or a
    /// DTMF opening of ours the panel confirms.
    mutating func receive(_ bytes: [UInt8], from source: String, _ context: Context, logger: Logger) -> [IntercomEvent.Kind] {
        let candidates = context.panelsAt(source).filter(context.heard.contains)
        guard let panel = candidates.first else {
            noteStranger(source, logger: logger)
            return []
        }
        guard let message = SyslogFrame.message(of: bytes), let line = BewardSyslogLine.parse(message) else { return [] }
        if candidates.count > 1 {
            logger.info("syslog from \(source): panels \(candidates.joined(separator: ", ")) share the address; taken as \(panel)'s")
        }
        switch line {
        case .doorOpened(let by, let door, let key, let flat):
            if by == .dtmf, isOurs(panel, context) {
                logger.info("panel \(panel) confirms the DTMF opening in its syslog")
                return []
            }
            return [.panelOpened(PanelOpening(panel: panel, door: door.description, by: by, key: key, flat: flat))]
        case .calling(let flat, let via):
            return [.panelCalling(panel: panel, flat: flat, via: via)]
        case .answeredOnHandset(let flat):
            handsetAnswers[panel] = context.now
            return [.callAnsweredElsewhere(panel: panel, flat: flat)]
        case .callsDone(let flat):
            logger.info("panel \(panel): all calls to flat \(flat) are done")
            return []
        }
    }

    /// Whether a handset took `panel`'s call at or after `since` (a call that rang from then on).
    func answeredOnHandset(_ panel: String, since: Date) -> Bool {
        handsetAnswers[panel].map { $0 >= since } ?? false
    }

    private func isOurs(_ panel: String, _ context: Context) -> Bool {
        if context.inCall(panel) { return true }
        guard let last = ourDTMF[panel] else { return false }
        return abs(context.now.timeIntervalSince(last)) <= Self.dtmfConfirmationWindow
    }

    private mutating func noteStranger(_ source: String, logger: Logger) {
        strangers += 1
        guard let count = strangerLog.admit() else { return }
        let more = count > 1 ? " (\(count - 1) more since the last line)" : ""
        logger.notice("ignored a syslog datagram from \(TerminalSafe.escape(source)): it is no heard panel's address\(more); \(strangers) in all")
    }
}
