import Foundation
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// `intercom share PHONE --until T` beside a running daemon, against `intercom simulate-operator`
/// over real HTTP: the simulator (as SmartYard's PHP) keeps no end, so the daemon keeps it
/// (share-expiries.json, 0600) and at T takes the guest off the flat, which the operator's list
/// then shows; `share_expired` on stdout, `on_share_expired` run, the end in `intercom log`.
/// The one real wait of the feature (a few seconds): its policy is tested on a manual clock
/// (ShareExpiryPolicyTests).
@Suite(.removesTestFolders) struct DaemonShareExpiryTests {
    static let guest = "79990001122"

    @Test func theDaemonTakesTheAccessBackWhenItIsDue() async throws {
        let simulator = try await SimulatorProcess.operator(["--no-camera"], prefix: "intercom-e2e-share-until")
        let hookDirectory = try TestDirectory(prefix: "intercom-e2e-share-until-hook")
        let hookOutput = hookDirectory.file("hook.out")
        let hook = try HookScript.create("#!/bin/sh\nprintf '%s %s\\n' \"$1\" \"$INTERCOM_JSON\" >> '\(hookOutput.path)'\n",
                                         named: "hook.sh", in: hookDirectory)
        try await withCleanup({ await simulator.stop() }) {
            let daemon = try DaemonProcess(config: DaemonProcess.operatorConfig(
                url: try simulator.operatorURL(), more: "[hooks]\non_share_expired = \(hook)\n"), name: "share-until")
            try await withCleanup({ _ = await daemon.stop() }) {
                try await daemon.waitUntilStarted()
                let login = try await daemon.loginToSimulatedOperator()
                #expect(login.status == 0, "\(login)")

                // Whole seconds: the end as the user writes it, RFC 3339 in UTC.
                let until = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 5).rounded(.up))
                let untilText = Self.rfc3339(until)
                let share = try await daemon.run(["share", Self.guest, "--until", untilText])
                #expect(share.status == 0 && share.stdout.contains("this intercom's daemon takes it back then"),
                        "\(share)\n\(daemon.log)")
                // The daemon's state folder ($XDG_STATE_HOME/intercom).
                let keptFile = daemon.directory.url.appendingPathComponent("state/intercom/share-expiries.json")
                let mode = try FileManager.default.attributesOfItem(atPath: keptFile.path)[.posixPermissions] as? Int
                #expect(mode == 0o600, "share-expiries.json mode \(String(mode ?? 0, radix: 8))")
                // Before the end: the operator lists the guest, the end shown as the daemon's.
                let before = try await listedGuest(daemon)
                #expect(before?["until"] as? String != nil, "\(String(describing: before))")
                #expect(Date() < until, "the share took too long to check the guest before the end")

                let event = try await daemon.waitForEvent("share_expired", timeout: .seconds(20))
                let seen = Date()
                #expect(event.string("phone") == Self.guest && event.string("operator") == "home", "\(event)")
                #expect(seen >= until, "share_expired at \(seen), before the end \(untilText)")
                // The keeper sleeps until the end; the removal and its check are two requests on loopback.
                #expect(seen.timeIntervalSince(until) <= 3, "share_expired \(seen.timeIntervalSince(until)) s after the end")
                #expect(try await listedGuest(daemon) == nil, "the operator still lists +\(Self.guest) after share_expired")

                let log = try await daemon.run(["log", "--local", "--json"])
                #expect(log.status == 0 && log.stdout.contains("share_expired") && log.stdout.contains(Self.guest),
                        "\(log)")
                try await TestPatience.poll("the on_share_expired hook ran") {
                    ((try? String(contentsOf: hookOutput, encoding: .utf8)) ?? "").hasPrefix("share_expired {")
                }
                let leftKept = try String(contentsOf: keptFile, encoding: .utf8)
                #expect(!leftKept.contains(Self.guest), "the end is still kept after it was done: \(leftKept)")
            }
        }
    }

    /// The guest's row in `intercom share --list --json` (the simulator's list), nil when not listed.
    private func listedGuest(_ daemon: DaemonProcess) async throws -> [String: Any]? {
        let list = try await daemon.run(["share", "--list", "--json"])
        guard list.status == 0, let rows = try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] else {
            throw HarnessError("share --list --json failed: \(list)")
        }
        return rows.first { $0["phone"] as? String == Self.guest }
    }

    private static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
