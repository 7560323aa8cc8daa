import Foundation
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// A call from an operator's panel through the registrar, as SmartYard's Asterisk rings the flat's
/// `4…` account: the daemon registers at kamailio, learns the operator's doors after a `login` and
/// SIGHUP, names the call by the door (`home:1:0`), and `ctl open` in the ringing call asks the
/// operator (`[operator home] open = api`), whose simulated panel opens; the call rings on until the
/// panel gives up.
@Suite(.removesTestFolders) struct DaemonOperatorCallTests {
    @Test func aCallThroughTheRegistrarIsTheOperatorsDoor() async throws {
        let simulator = try await SimulatorProcess.operator(prefix: "intercom-e2e-opsim-call")
        let kamailio = try Kamailio()
        try await withCleanup({ await kamailio.stop(); await simulator.stop() }) {
            try await kamailio.start()
            let url = try simulator.operatorURL()
            let daemon = try DaemonProcess(config: """
                [sip]
                listen = udp:127.0.0.1:0, tcp:127.0.0.1:0
                account = sip:resident@\(kamailio.hostPort)
                proxy = \(kamailio.uri)
                unknown_callers = reject

                [operator home]
                api = \(url)
                phone = 79123456781
                open = api
                """, name: "operator-call")
            try await withCleanup({ _ = await daemon.stop() }) {
                try await daemon.waitUntilStarted()
                try await daemon.waitForEvent("registered", timeout: .seconds(10))
                let login = try await daemon.loginToSimulatedOperator()
                #expect(login.status == 0, "\(login)")
                // The daemon asks the operator again on SIGHUP.
                kill(daemon.process.pid, SIGHUP)
                let known = try await TestPatience.eventually(within: .seconds(5), every: .milliseconds(100)) {
                    try await daemon.run(["ctl", "status"]).stdout.contains("home:1:0")
                }
                #expect(known, "the daemon never listed home:1:0\n\(daemon.log)")

                async let panel = Sipp.run(
                    scenario: BewardScenarios.panelCallCancelled(after: .seconds(4)), name: "operator-panel",
                    remote: kamailio.hostPort, service: "resident", timeout: .seconds(20))
                let incoming = try await daemon.waitForEvent("call_incoming", timeout: .seconds(10))
                #expect(incoming.string("panel") == "home:1:0" && incoming.string("from")?.contains("sip:100001@") == true,
                        "\(incoming)")
                let open = try await daemon.run(["ctl", "open"])
                #expect(open.status == 0 && open.stdout.contains("home:1:0"), "\(open)\n\(daemon.log)")
                try await simulator.waitForOutput(containing: "door opened: main", timeout: .seconds(10))
                let opened = try await daemon.waitForEvent("door_opened")
                #expect(opened.string("method") == "operator" && (opened["ok"] as? Bool) == true
                        && opened.string("door") == "home:1:0", "\(opened)")
                let result = try await panel
                #expect(result.succeeded, "\(result)\n\(kamailio.log)\n\(daemon.log)")
                let ended = try await daemon.waitForEvent("call_ended", timeout: .seconds(10))
                #expect(ended.string("panel") == "home:1:0", "\(ended)")
            }
        }
    }
}
