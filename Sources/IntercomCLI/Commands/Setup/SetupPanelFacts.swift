import Foundation
import IntercomBase
import IntercomPanel

/// What a panel says about itself that the config needs, read once its password is accepted (and
/// never written back): the SIP user its calls come from (`sip_cgi` `AccUser1`), and its camera
/// stream (`rtsp_cgi` `RtspSwitch`/`RtspPort`), kept only when a DESCRIBE with the panel's
/// credentials answers.
struct SetupPanelFacts {
    /// Asks a stream to describe itself with the given credentials: nil when it answers, else why not
    /// (one line, no password). intercom-full passes FFmpeg's (`StreamProbe`).
    typealias StreamCheck = @Sendable (_ url: String, _ user: String, _ password: String) async -> String?

    enum Stream: Equatable {
        /// Answered a DESCRIBE: written as `rtsp = URL`.
        case url(String)
        /// Switched off on the panel, or no answer: `rtsp = off` with the reason as a comment.
        case off(String)
        /// Nothing to go by (no `rtsp_cgi`, no checker): the config keeps the default.
        case unknown
    }

    var sipUser: String?
    var stream: Stream = .unknown

    static func read(_ panel: BewardPanel, host: String, user: String, password: String,
                     streamCheck: StreamCheck?) async -> SetupPanelFacts {
        var facts = SetupPanelFacts()
        // A page the firmware lacks, or one that fails, only means the wizard knows less.
        if let sip = try? await panel.sipSettings(), let account = sip["AccUser1"]?.trimmingCharacters(in: .whitespaces),
           !account.isEmpty, account.allSatisfy({ $0.isLetter || $0.isNumber || "-_.+".contains($0) }) {
            facts.sipUser = account
        }
        guard let rtsp = try? await panel.rtspSettings() else { return facts }
        if rtsp["RtspSwitch"]?.lowercased() == "close" {
            facts.stream = .off("the panel's RTSP is switched off (RtspSwitch=close)")
            return facts
        }
        guard let streamCheck else { return facts }
        let port = rtsp["RtspPort"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { (1...65535).contains($0) ? $0 : nil } ?? 554
        let url = "rtsp://\(host.contains(":") ? "[\(host)]" : host):\(port)/av0_0"
        if let problem = await streamCheck(url, user, password) {
            facts.stream = .off("\(url) did not answer at setup: \(problem)")
        } else {
            facts.stream = .url(url)
        }
        return facts
    }
}
