import Foundation
import IntercomBase
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// Every call is counted (issue 25), through the real binaries: `simulate-panel --count N` rings
/// the daemon from N panels within a second. With the default `[sip] max_calls` (panels + 4) all 16
/// of a building ring; with `max_calls = 20`, 24 panels give 20 ringing calls and 4 that
/// liblinphone refused 486 Busy, each still reported (`call_incoming`, `call_ended` reason `busy`,
/// named by its source address and `match`) and in `log --missed`. The engine's half: BusyCallTests.
@Suite("daemon: calls at once", .serialized, .removesTestFolders) struct DaemonBusyCallTests {
    @Test("16 panels at once all ring with the default limit; 24 with max_calls = 20: 20 ring, 4 reported busy and journaled; ctl handled and log --handled take them out of log --unhandled")
    func everyCallIsCounted() async throws {
        let sixteen = try await Self.ringAll(count: 16, maxCalls: nil)
        #expect(sixteen.ringing.count == 16 && sixteen.busy.isEmpty, "\(sixteen)")

        let twentyFour = try await Self.ringAll(count: 24, maxCalls: 20)
        #expect(twentyFour.ringing.count == 20, "\(twentyFour)")
        #expect(twentyFour.busy.count == 4, "\(twentyFour)")
        #expect(Set(twentyFour.busy).isDisjoint(with: twentyFour.ringing), "\(twentyFour)")
        #expect(twentyFour.missedLog.count == 4 && twentyFour.missedLog.allSatisfy { $0 == "busy" }, "\(twentyFour)")
    }

    struct Outcome: CustomStringConvertible {
        /// Panels whose call was reported and still rings; panels refused busy; `log --missed` outcomes.
        var ringing: [String], busy: [String], missedLog: [String]
        var description: String { "ringing \(ringing.sorted()), busy \(busy.sorted()), log --missed \(missedLog)" }
    }

    /// `intercom log --json FILTER` as objects.
    static func log(_ daemon: DaemonProcess, _ filter: String) async throws -> [JSONValue] {
        let log = try await daemon.run(["log", "--json", "--local", filter])
        return log.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
    }

    /// `count` simulated panels, each configured with its `match`, all told to ring at once.
    static func ringAll(count: Int, maxCalls: Int?) async throws -> Outcome {
        let dir = try TestDirectory(prefix: "intercom-busy-\(count)")
        let port = try FreePort.udpAndTCP()
        let fleet = try await SimulatorProcess.panel(["--count", "\(count)", "--events", "json", "--call", "sip:intercom@127.0.0.1:\(port)"],
                                                     in: dir, stdin: true, timeout: .seconds(40))
        var daemon: DaemonProcess?
        return try await withCleanup({ _ = await daemon?.stop(grace: .seconds(10)); await fleet.stop(grace: .seconds(15)) }) {
            let out = fleet.stdout
            let panels = out.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }.filter { $0["event"]?.stringValue == "panel" }
            #expect(panels.count == count)
            var config = "[sip]\nlisten = udp:127.0.0.1:\(port)\n" + (maxCalls.map { "max_calls = \($0)\n" } ?? "") + "\n"
            for panel in panels {
                let name = panel["name"]?.stringValue ?? "", from = panel["from"]?.stringValue ?? ""
                let user = from.dropFirst("sip:".count).prefix { $0 != "@" }
                // Slow snapshot polling: the test is about calls, not pictures.
                config += "[panel \(name)]\nurl = \(panel["url"]?.stringValue ?? "")\nmatch = sip:\(user)@\npeephole_fps = 0.2\n\n"
            }
            let running = try DaemonProcess(config: config, name: "busy-\(count)")
            daemon = running
            try await running.waitUntilStarted()
            let sent = ContinuousClock.now
            for n in 1...count { try fleet.write(line: "ring \(n)") }
            #expect(ContinuousClock.now - sent < .seconds(1), "the rings took more than a second to ask for")
            let busyCount = max(0, count - (maxCalls ?? count))
            let deadline = ContinuousClock.now.advanced(by: .seconds(30))
            func incoming() -> [DaemonEvent] { running.events.filter { $0.name == "call_incoming" } }
            func ended() -> [DaemonEvent] { running.events.filter { $0.name == "call_ended" } }
            guard await TestPatience.eventually(within: .seconds(30), every: .milliseconds(50), {
                incoming().count >= count && ended().count >= busyCount
            }) else {
                throw HarnessError("\(incoming().count) of \(count) calls reported, \(ended().count) ended" + HarnessError.tail(running.log))
            }
            let endedCalls = ended()
            #expect(endedCalls.allSatisfy { $0.string("reason") == "busy" && $0.number("duration_s") == 0 }, "\(endedCalls)")
            let busyIDs = Set(endedCalls.compactMap { $0.string("call") })
            let calls = incoming()
            #expect(calls.allSatisfy { $0.string("panel")?.hasPrefix("panel-") == true }, "a call without its panel: \(calls)")
            // Busy refusals are journaled as they are reported; poll until the recorder wrote them.
            var missed: [JSONValue] = []
            try await TestPatience.eventually(within: max(.zero, deadline - ContinuousClock.now), every: .milliseconds(100)) {
                missed = try await Self.log(running, "--missed")
                return missed.count >= busyCount
            }
            var unhandled: [Int] = []
            let ids = missed.compactMap { $0["id"].flatMap { if case .integer(let n) = $0 { n } else { nil } } }
            if ids.count >= 2 {
                // The queue of missed calls: one handled through the daemon, one through the journal directly.
                let ctl = try await running.run(["ctl", "handled", "\(ids[0])", "--by", "desk-test"])
                #expect(ctl.status == 0 && ctl.stdout.contains(#""handled_by":"desk-test""#), "\(ctl)")
                let cli = try await running.run(["log", "--handled", "\(ids[1])", "--by", "bob"])
                #expect(cli.status == 0 && cli.stdout.contains("handled by bob"), "\(cli)")
                let notMissed = try await running.run(["ctl", "handled", "999999"])
                #expect(notMissed.status == 1 && notMissed.stderr.contains("no entry 999999"), "\(notMissed)")
                unhandled = try await Self.log(running, "--unhandled").compactMap { $0["id"].flatMap { if case .integer(let n) = $0 { n } else { nil } } }
                #expect(unhandled == Array(ids.dropFirst(2)), "\(unhandled) of \(ids)")
            }
            return Outcome(ringing: calls.filter { !busyIDs.contains($0.string("call") ?? "") }.compactMap { $0.string("panel") },
                           busy: endedCalls.compactMap { $0.string("panel") }, missedLog: missed.compactMap { $0["outcome"]?.stringValue })
        }
    }
}
