import Foundation

extension ScreenModel {
    /// What the title bar says after the screen's name: the queue line when calls are in (every call
    /// in the order it came), else that it waits and how the phone is registered; and, while the
    /// site's store does not answer, "site unreachable" where a desk's user looks first (issue 40).
    func titleState(now: Date) -> String {
        let state = queueLine(now: now) ?? "waiting for calls\(registration.map { " — \($0)" } ?? "")"
        return siteDown ? "\(state) — site unreachable" : state
    }
}
