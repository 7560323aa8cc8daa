import Foundation
import IntercomBase
@testable import IntercomSimulator
import IntercomTestSupport
import Testing

/// Issue 38 through the real binaries, one daemon: `ctl callback` to a panel that answers 486
/// Busy Here (sipp) reached nobody, so it exits 69 saying so and the missed call stays in
/// `log --unhandled` with why; `doctor` beside the running daemon says "running, pid N", takes the
/// SIP port as the daemon's, warns about a panel it cannot call back and still exits 0. The
/// engine's side on fakes: MissedCallQueueTests.
@Suite("daemon: call back and doctor beside it", .removesTestFolders) struct DaemonCallBackTests {
    @Test func aCallBackRefusedBusyStaysUnhandledAndDoctorRunsBesideTheDaemon() async throws {
        let server = SimulatedPanelHTTPServer(options: .init(user: "admin", password: "admin"))
        let httpPort = try server.start()
        defer { server.stop() }
        let busy = try Sipp(scenario: BewardScenarios.rejectingUAS(status: "486 Busy Here"), name: "busy", timeout: .seconds(30))
        let directory = try TestDirectory(prefix: "intercom-e2e-callback")
        // The missed call waits in the daemon's journal before the daemon starts.
        var environment: [String: String] = [:]
        for (key, value) in try IntercomBinary.environment(in: directory) { if let value { environment[key] = value } }
        let journal = try Journal(directory: JournalLocation.directory(JournalSettings(), environment: environment))
        let at = Date().addingTimeInterval(-60)
        let missed = try journal.callStarted(panel: "entrance", call: CallID("c1"), caller: "sip:100001@127.0.0.1", at: at)
        try journal.callEnded(missed, outcome: "missed", duration: 0, at: at)
        let config = DaemonProcess.simulatedPanelConfig(httpPort: httpPort, entrance: "rtsp = off\ndial = sip:100001@\(busy.hostPort)")
            + "[panel gate]\nurl = http://127.0.0.1:\(httpPort)\npassword = admin\nrtsp = off\n"
        let daemon = try DaemonProcess(config: config, name: "callback", directory: directory)
        try await withCleanup({
            _ = await daemon.stop()
            _ = await busy.stop()
        }) {
            try await daemon.waitUntilStarted()
            try await busy.waitUntilListening()

            let callBack = try await daemon.run(["ctl", "callback", "\(missed)", "--by", "desk-test"])
            #expect(callBack.status == 69, "\(callBack)")
            #expect(callBack.stderr.contains("the call back of entry \(missed) to entrance reached nobody: refused")
                    && callBack.stderr.contains("it stays in 'intercom log --unhandled'") && callBack.stdout.isEmpty, "\(callBack)")
            let queue = try await daemon.run(["log", "--unhandled", "--json", "--local"])
            let entry = queue.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }.first
            #expect(entry?["id"] == .integer(Int(missed)) && entry?["handled_by"] == .null, "\(queue)")
            #expect(entry?["callback_failed"]?.stringValue?.hasPrefix("refused") == true
                    && entry?["callback_failed"]?.stringValue?.hasSuffix(", by desk-test") == true, "\(queue)")

            let doctor = try await IntercomBinary.run(["doctor", "--config", daemon.configURL.path], in: directory, timeout: .seconds(60))
            let out = doctor.stdout
            #expect(out.contains("ok  running, pid \(daemon.process.pid), control socket"), "\(out)")
            #expect(out.contains("ok  the daemon (pid \(daemon.process.pid)) listens on udp:127.0.0.1:"), "\(out)")
            #expect(!out.contains("already running") && !out.contains("in use"), "\(out)")
            #expect(out.contains("!!  gate: no way to call it back: without dial = a call back dials sip:127.0.0.1"), "\(out)")
            #expect(!out.contains("entrance: no way to call it back"), "\(out)")
            // A warning fails nothing: a health check beside the daemon passes.
            // Printed as well: once in a loaded `make test` this failed and its issue's text never reached the log.
            if doctor.status != 0 || !out.contains("all checks passed, ") { print("DaemonCallBackTests: doctor said:\n\(doctor)") }
            #expect(doctor.status == 0, "doctor exited \(doctor.status)")
            #expect(out.contains("all checks passed, ") && out.contains(" warning(s)"), "\(doctor)")
        }
    }
}
