import Foundation
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// What every fault test asks of the daemon afterwards: it is alive and still does its job.
enum FaultChecks {
    /// A normal panel call (sipp, From 100001, hangs up after half a second) is auto-answered and
    /// ends as remote_hangup. Needs `[panel entrance] match = sip:100001@, auto_answer = on`.
    static func expectAnswersAPanelCall(_ daemon: DaemonProcess, label: String = "normal",
                                        sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(daemon.process.isRunning, "the daemon is gone before the \(label) call\n\(daemon.log)",
                sourceLocation: sourceLocation)
        let earlier = Set(daemon.events.compactMap { $0.name == "call_incoming" ? $0.string("call") : nil })
        let panel = try await Sipp.run(
            scenario: BewardScenarios.panelCall(hangupAfter: .milliseconds(500), video: false), name: label,
            remote: try daemon.hostPort(), service: "resident", timeout: .seconds(15))
        #expect(panel.succeeded, "\(panel)\n\(daemon.log)", sourceLocation: sourceLocation)
        let incoming = try await daemon.waitForEvent("call_incoming") { !earlier.contains($0.string("call") ?? "") }
        #expect(incoming.string("panel") == "entrance", "\(incoming)", sourceLocation: sourceLocation)
        let call = try #require(incoming.string("call"), sourceLocation: sourceLocation)
        let answered = try await daemon.waitForEvent("call_answered") { $0.string("call") == call }
        #expect(answered.string("by") == "auto", "\(answered)", sourceLocation: sourceLocation)
        let ended = try await daemon.waitForEvent("call_ended") { $0.string("call") == call }
        #expect(ended.string("reason") == "remote_hangup", "\(ended)", sourceLocation: sourceLocation)
    }

    /// Every call that was reported incoming has been reported ended (nothing left dangling).
    static func expectNoCallLeftOpen(_ daemon: DaemonProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        let incoming = Set(daemon.events.filter { $0.name == "call_incoming" }.compactMap { $0.string("call") })
        let ended = Set(daemon.events.filter { $0.name == "call_ended" }.compactMap { $0.string("call") })
        #expect(incoming.subtracting(ended).isEmpty, "calls never ended: \(incoming.subtracting(ended))\n\(daemon.events)",
                sourceLocation: sourceLocation)
    }

    /// The daemon's resident set in KiB (VmRSS of /proc/PID/status).
    static func residentKiB(_ pid: pid_t) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int($0) })
        else { throw HarnessError("no VmRSS in /proc/\(pid)/status") }
        return kib
    }
}
