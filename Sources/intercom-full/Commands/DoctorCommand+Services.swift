import Foundation
import IntercomBase
import IntercomCLI
import IntercomMQTT
import IntercomVideo

/// What `intercom doctor` checks beyond the panels' HTTP and SIP: each panel's camera stream,
/// the hook programs, and the MQTT broker (issue 25: doctor said "all ok" while `watch` failed,
/// a hook was missing and the broker was down).
extension DoctorCommand {
    /// Each panel's main stream (`rtsp`, or the URL derived from `url`), unless `rtsp = off`:
    /// FFmpeg's DESCRIBE with the panel's user and password must answer and name a video track.
    /// Panels whose HTTP check failed are skipped (that line already says why). All at once.
    static func streamFindings(_ panels: [PanelConfig]) async -> [Finding] {
        await withTaskGroup(of: (Int, Finding?).self) { group in
            for (index, panel) in panels.enumerated() {
                guard let url = panel.rtspURL else { continue }
                group.addTask {
                    let source = VideoSource(url: url, user: panel.user, password: panel.password, openTimeout: .seconds(5))
                    let given = panel.rtsp != .derived
                    guard let error = await StreamProbe.check(source) else {
                        return (index, Finding(ok: true, text: "\(panel.name): \(source.displayName) answers"
                            + (given ? "" : " (derived from url; set [panel \(panel.name)] rtsp to pin it)")))
                    }
                    let fix = switch error {
                    case .authRefused: "check [panel \(panel.name)] user and password (the stream uses them too)"
                    default: given ? "check [panel \(panel.name)] rtsp, or set rtsp = off"
                        : "set [panel \(panel.name)] rtsp = the camera's URL, or rtsp = off (watch then shows snapshots)"
                    }
                    return (index, Finding(ok: false, text: "\(panel.name): \(error); \(fix)", code: error.exitCode))
                }
            }
            var found: [(Int, Finding?)] = []
            for await result in group { found.append(result) }
            return found.sorted { $0.0 < $1.0 }.compactMap(\.1)
        }
    }

    /// `[hooks]`: each program exists, is a file and may be run.
    static func hookFindings(_ hooks: [String: String]) -> [Finding] {
        let problems = HookProgramCheck.problems(hooks)
        let fine = hooks.count - problems.count
        return problems.map { Finding(ok: false, text: $0, code: ExitCode.dataError) }
            + (fine > 0 ? [Finding(ok: true, text: "\(fine) hook program(s) present and executable")] : [])
    }

    /// `[mqtt]`: the broker takes a connection and the login, as the daemon would make them.
    static func mqttFinding(_ settings: MQTTSettings) async -> Finding {
        let login = settings.user.map { " as \($0)" } ?? ""
        // libmosquitto's texts end in a full stop; the line goes on after them.
        func clause(_ text: String) -> String { text.hasSuffix(".") ? String(text.dropLast()) : text }
        switch await MQTTBrokerCheck.run(settings) {
        case .accepted:
            return Finding(ok: true, text: "broker \(settings.endpoint)\(settings.tls ? " (TLS)" : "") accepts the connection\(login)")
        case .refused(let why):
            return Finding(ok: false, text: "broker \(settings.endpoint) refused the login\(login): \(clause(why)); check [mqtt] user and password",
                           code: ExitCode.authRefused)
        case .unreachable(let why):
            return Finding(ok: false, text: "broker \(settings.endpoint) cannot be reached: \(clause(why)); check [mqtt] url and that the broker runs",
                           code: ExitCode.unavailable)
        case .noAnswer:
            return Finding(ok: false, text: "broker \(settings.endpoint) did not answer within 5 s; check [mqtt] url and that the broker runs",
                           code: ExitCode.unavailable)
        }
    }
}
