import Foundation
import IntercomBase
import IntercomPhone
import IntercomSimulator
import IntercomTestSupport

/// Issue 27: `intercom daemon` with `[notify] desktop = on` on a private session bus, with the same
/// notification server the end-to-end test uses (`NotificationServerStub`: a `dbus-daemon
/// --session` and a python3-gi `org.freedesktop.Notifications` that logs each call with the wall
/// time it arrived). A liblinphone caller in this process rings as the panel; the panel's HTTP side is
/// the simulated panel's server here, which counts the door requests.
enum NotifyBench {
    struct Result {
        /// The daemon's `call_incoming` (its own `time`, ms resolution) → Notify arriving at the server.
        var ringToShown = Samples()
        /// The server emitting ActionInvoked(open) (its wall time) → the panel counting `intercom_cgi?action=maindoor`.
        var openToDoor = Samples()
        var failures = 0
        var doorsSeen = 0
        var date = ""
    }

    static let warmUps = 1

    static func run(intercom: String, work: String, calls: Int) async throws -> Result {
        var result = Result()
        result.date = RFC3339.string(Date())
        let stub = try await NotificationServerStub.start(actions: true)
        do {
            try await measure(stub: stub, intercom: intercom, work: work, calls: calls, into: &result)
        } catch {
            await stub.stop()
            throw error
        }
        await stub.stop()
        return result
    }

    private static func measure(stub: NotificationServerStub, intercom: String, work: String, calls: Int,
                                into result: inout Result) async throws {
        let panel = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
        _ = try panel.start()
        defer { panel.stop() }
        // `ring_timeout`: a round that loses a step must not end by itself and shift the next one.
        let bench = try await BenchDaemon.start(
            intercom: intercom, home: "\(work)/notify-home",
            config: BenchConfig.sip("ring_timeout = 600")
                + BenchConfig.panel("entrance", url: panel.baseURL, "match = sip:100001@", "open = http")
                + "[notify]\ndesktop = on\n",
            environment: ["DBUS_SESSION_BUS_ADDRESS": stub.address])
        // `started` comes after the notifier is on the bus (DesktopNotifier.start runs before the engine).
        let daemon = bench.process
        defer { daemon.stop() }
        let caller = try await BenchDaemon.caller(work: work, name: "notify-caller")
        do {
            try await rounds(calls: calls, stub: stub, panel: panel, bench: bench, caller: caller, into: &result)
        } catch {
            await caller.stop()
            throw error
        }
        await caller.stop()
    }

    /// One warm-up, then `calls` rings: each shown, then opened from the notification.
    private static func rounds(calls: Int, stub: NotificationServerStub, panel: SimulatedPanelHTTPServer, bench: BenchDaemon,
                               caller: Phone, into result: inout Result) async throws {
        let daemon = bench.process
        var cursor = bench.firstEvent
        var lastID = 0
        for round in 0..<(calls + warmUps) {
            let counted = round >= warmUps
            let id = try await caller.call(bench.uri, video: false)
            guard let incoming = await daemon.waitLine(containing: "\"call_incoming\"", after: cursor),
                  let ringTime = eventTime(incoming.line),
                  let shown = try? await stub.wait(for: "Notify", timeout: .seconds(10), where: {
                      $0["replaces"] as? Int == 0 && ($0.id ?? 0) > lastID
                  }),
                  let notification = shown.id else {
                result.failures += counted ? 1 : 0
                try? await caller.hangup(id)
                cursor = await settle(daemon, after: cursor)
                continue
            }
            lastID = notification
            if counted { result.ringToShown.add((shown.time - ringTime) * 1000) }

            let before = panel.requestCount("intercom_cgi?action=maindoor")
            try stub.press("open", on: notification)
            // Polled every 0.2 ms, as the MQTT section polls the same counter.
            let start = Date()
            while panel.requestCount("intercom_cgi?action=maindoor") == before, Date().timeIntervalSince(start) < 10 {
                try await Task.sleep(nanoseconds: 200_000)
            }
            let seen = Date()
            // The server logs `invoke` with its wall time right before it emits ActionInvoked.
            let invoked = try? await stub.wait(for: "invoke", timeout: .seconds(5)) { $0.id == notification }
            if let invoked, panel.requestCount("intercom_cgi?action=maindoor") > before {
                if counted { result.openToDoor.add((seen.timeIntervalSince1970 - invoked.time) * 1000) }
            } else if counted {
                result.failures += 1
            }
            // Open answers the call to open the door; the caller hangs up, as a panel does after the relay.
            try? await caller.hangup(id)
            cursor = await settle(daemon, after: incoming.index)
            try await Task.sleep(nanoseconds: 300_000_000)
        }
        result.doorsSeen = panel.requestCount("intercom_cgi?action=maindoor")
    }

    /// The index after the round's `call_ended` (or `after` itself when none came within 10 s).
    private static func settle(_ daemon: ChildProcess, after: Int) async -> Int {
        await daemon.waitLine(containing: "\"call_ended\"", after: after).map { $0.index + 1 } ?? after
    }

    /// Seconds since 1970 of an event line's own `time` (RFC 3339 with milliseconds, as the daemon prints it).
    static func eventTime(_ line: String) -> Double? {
        JSONValue.parse(line)?["time"]?.stringValue.flatMap(RFC3339.date)?.timeIntervalSince1970
    }
}
