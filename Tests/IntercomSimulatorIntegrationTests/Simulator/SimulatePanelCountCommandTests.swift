import Foundation
import IntercomBase
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// `intercom simulate-panel --count N` through the real binary: N panels in one process, each with
/// its own HTTP port and SIP identity, announced one line each; `ring NAME` on stdin rings from that one.
@Suite(.serialized, .removesTestFolders) struct SimulatePanelCountCommandTests {
    @Test("--count 3: three named panels, each its own HTTP server; 'ring panel-02' calls as 100002")
    func threePanelsAndOneRings() async throws {
        let dir = try TestDirectory(prefix: "simulate-panel-count")
        let callee = try UDPPortHolder()
        let process = try await SimulatorProcess.panel(["--count", "3", "--events", "json", "--call", "sip:desk@127.0.0.1:\(callee.port)"],
                                                       in: dir, stdin: true)
        try await withCleanup({ await process.stop(grace: .seconds(10)) }) {
            let out = process.stdout
            let panels = out.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
                .filter { $0["event"]?.stringValue == "panel" }
            #expect(panels.map { $0["name"]?.stringValue } == ["panel-01", "panel-02", "panel-03"])
            #expect(panels.map { $0["from"]?.stringValue } == ["sip:100001@127.0.0.1", "sip:100002@127.0.0.1", "sip:100003@127.0.0.1"])
            #expect(panels.allSatisfy { $0["rtsp"] == .null }, "no RTSP by default with --count")
            let urls = panels.compactMap { $0["url"]?.stringValue }
            #expect(Set(urls).count == 3, "\(urls)")
            // Each panel answers on its own port.
            for url in urls {
                let curl = try await Subprocess.run(try ExternalTool.path("curl"), [
                    "-s", "--digest", "-u", "admin:admin", "\(url)/cgi-bin/systeminfo_cgi?action=get",
                ], logDirectory: dir.url)
                #expect(curl.stdout.contains("DeviceModel="), "\(url): \(curl.stdout)")
            }

            try process.write(line: "ring panel-02")
            let invite = try await callee.receive(containing: "INVITE ", timeout: .seconds(10))
            #expect(invite.contains("sip:100002@"), "the INVITE is not from panel-02:\n\(invite)")
            _ = try await process.waitForOutput(containing: "\"panel\":\"panel-02\",\"call\"", in: .stdout)
            try process.write(line: "ring 9")
            _ = try await process.waitForOutput(containing: "no panel '9'", in: .stdout)
        }
        #expect(process.exitStatus == 0, "\(process.log)")
        #expect(process.stdout.contains("\"event\":\"stopped\""))
    }

    @Test("--count: a bad number, or --ring-every with it, is a one-line usage error")
    func usageErrors() async throws {
        let dir = try TestDirectory(prefix: "simulate-panel-count")
        for (arguments, text) in [(["--count", "0"], "takes a number of panels 1-256"),
                                  (["--count", "2", "--call", "sip:a@127.0.0.1:5060", "--ring-every", "3"], "work with one panel"),
                                  (["--count", "9", "--http-port", "65530"], "runs past port 65535")] {
            let run = try await Subprocess.run(try IntercomBinary.path(), ["simulate-panel"] + arguments, logDirectory: dir.url)
            #expect(run.status == 64 && run.stderr.contains(text), "\(arguments): \(run.stderr)")
        }
    }
}
