/// The control socket's request names, each spelled once: the parser matches on them, the
/// encoder writes them, `ControlRequest.commands` lists them and the generated reference
/// documents each (its exhaustive switch fails to compile when one is added without words).
public enum ControlCommandName: String, CaseIterable, Sendable {
    case status, answer, decline, hangup, open, dtmf, mute, speaker, call, transfer, calls, guest, handled, callback
    case doors, journal, events, attach, picture, duty, site
    case watchPanels = "watch_panels"
    case watchCamera = "watch_camera"
    case unwatch
    case shareExpiry = "share_expiry"
    case settings
}
