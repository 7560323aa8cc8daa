import Foundation
import IntercomBase
import IntercomCLI

/// Doctor beside a running daemon (issue 38): it asks the control socket first, so the daemon's
/// SIP port counts as the daemon's, not as a port someone else took, and a unit's ExecStartPre or
/// a health check can run it while the daemon runs.
extension DoctorCommand {
    /// What the control socket said: the daemon's pid and its `status`, or nil when none answers.
    struct RunningDaemon {
        var pid: Int32
        var status: JSONValue
    }

    /// Asks the config's control socket for the daemon's status. No daemon is no problem (a notice);
    /// a socket another user serves, or one that accepts and never answers, is.
    static func daemonCheck(_ config: IntercomConfig, report: (Finding) -> Void) -> RunningDaemon? {
        let path = config.daemon.socketPath
        do throws(ControlError) {
            let client = try ControlClient(path: path, timeout: .seconds(3))
            let reply = try client.request(ControlRequest(id: .integer(1), action: .command(.status)))
            guard reply["ok"] == .bool(true), let status = reply["data"] else {
                report(Finding(ok: false, text: "the daemon on \(path) (pid \(client.peerPID)) refused 'status': "
                               + (reply["error"]?.stringValue ?? "no reason given"), code: ExitCode.unavailable))
                return nil
            }
            report(Finding(ok: true, text: "running, pid \(client.peerPID), control socket \(path)"))
            return RunningDaemon(pid: client.peerPID, status: status)
        } catch .noDaemon {
            Console.out("  --  not running (nothing listens on \(TerminalSafe.escape(path))); checking SIP with a phone of its own")
            return nil
        } catch {
            report(Finding(ok: false, text: error.description, code: error.exitCode))
            return nil
        }
    }

    /// The SIP side of a running daemon: its listening addresses and its registration, from its
    /// status, instead of a phone of doctor's own that would find the daemon's port taken.
    static func daemonSIPFindings(_ daemon: RunningDaemon) -> [Finding] {
        let status = IntercomStatus(json: daemon.status)
        let listen = status.listen
        var findings = [Finding(ok: true, text: "the daemon (pid \(daemon.pid)) listens on "
                                + (listen.isEmpty ? "nothing it reported" : listen.joined(separator: ", ")))]
        if let registration = status.registration {
            let account = registration.account
            switch registration.state {
            case "registered":
                findings.append(Finding(ok: true, text: "the daemon is registered as \(account)"))
            case let state:
                // Worded as doctor's own check words it ("registration of X failed: reason").
                let reason = registration.reason ?? "no reason"
                let text = state == "failed" ? "the daemon's registration of \(account) failed: \(reason)"
                    : "the daemon's registration of \(account) is \(state) (\(reason))"
                findings.append(Finding(ok: false, text: text, code: ExitCode.unavailable))
            }
        }
        return findings
    }

    /// A panel a call back cannot reach (issue 38): no `dial`, and nothing that names its SIP user,
    /// so `intercom call` and `ctl callback` dial the bare address, which a Beward panel lets ring
    /// out. A warning: calls from the panel still work.
    static func callBackFinding(_ panel: PanelConfig) -> Finding? {
        guard panel.dial == nil, let uri = panel.dialURI, !uri.contains("@") else { return nil }
        let user = panel.match.lazy.compactMap { rule -> String? in
            if case .uriPrefix(let prefix) = rule, prefix.hasPrefix("sip:"), let at = prefix.firstIndex(of: "@") {
                return String(prefix[prefix.index(prefix.startIndex, offsetBy: 4)..<at])
            }
            return nil
        }.first
        let host = String(uri.dropFirst("sip:".count))
        return Finding(ok: false, text: "\(panel.name): no way to call it back: without dial = a call back dials \(uri), which a panel "
                       + "lets ring out; set [panel \(panel.name)] dial = sip:\(user ?? "ITS-SIP-USER")@\(host)", code: ExitCode.ok)
    }
}
