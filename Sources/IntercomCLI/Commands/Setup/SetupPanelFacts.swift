import Foundation
import IntercomBase
import IntercomPanel

/// What a panel says about itself that the config needs, read once its password is accepted (and
/// never written back): the SIP user its calls come from (`sip_cgi` `AccUser1`), the digits that open
/// its doors (`DtmfSignal1/2`, into `dtmf.main`/`dtmf.alt`), and its camera
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

    /// The digits the panel opens its first and second lock on (`DtmfSignal1`, `DtmfSignal2`);
    /// nil where it did not say, or said something that is not DTMF.
    struct DoorDigits: Equatable {
        var main: String?
        var alt: String?

        init(main: String? = nil, alt: String? = nil) {
            self.main = main
            self.alt = alt
        }

        init(sip: KeyValueBody) {
            func digits(_ key: String) -> String? {
                guard let text = sip[key]?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.count <= 8,
                      text.allSatisfy({ "0123456789*#ABCD".contains($0) }) else { return nil }
                return text
            }
            self.init(main: digits("DtmfSignal1"), alt: digits("DtmfSignal2"))
        }

        /// "main 1, alt 2" for the wizard's line; nil when the panel said neither.
        var described: String? {
            let parts = [main.map { "main \($0)" }, alt.map { "alt \($0)" }].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        }
    }

    var sipUser: String?
    var doorDigits = DoorDigits()
    var stream: Stream = .unknown

    static func read(_ panel: BewardPanel, host: String, user: String, password: String,
                     streamCheck: StreamCheck?) async -> SetupPanelFacts {
        var facts = SetupPanelFacts()
        // A page the firmware lacks, or one that fails, only means the wizard knows less.
        let sip = try? await panel.sipSettings()
        if let sip, let account = sip["AccUser1"]?.trimmingCharacters(in: .whitespaces),
           !account.isEmpty, account.allSatisfy({ $0.isLetter || $0.isNumber || "-_.+".contains($0) }) {
            facts.sipUser = account
        }
        if let sip { facts.doorDigits = DoorDigits(sip: sip) }
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
