import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// The real binary end to end: `intercom ctl` against the daemon's socket, SIGHUP during a call,
/// a hook on each answer, and a journal that survives `kill -9` and reads back with `intercom log`.
@Suite("daemon: control socket, journal, hooks", .removesTestFolders) struct DaemonControlJournalTests {
    static func config(hook: String) -> String {
        DaemonProcess.autoAnsweringPanelConfig(extra: "[hooks]\non_call_answered = \(hook)")
    }

    static func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test("ctl status; SIGHUP keeps a call; kill -9 mid-call keeps earlier entries; log --json; hook ran")
    func controlReloadKillAndJournal() async throws {
        let hookDirectory = try TestDirectory(prefix: "intercom-e2e-hook")
        let hookOutput = hookDirectory.path + "/answered.txt"
        let hook = try HookScript.create(
            "#!/bin/sh\nprintf '%s %s %s\\n' \"$1\" \"$INTERCOM_CALL\" \"$INTERCOM_PANEL\" >> '\(hookOutput)'\n",
            named: "hook.sh", in: hookDirectory)
        let daemon = try DaemonProcess(config: Self.config(hook: hook), name: "ctl")
        try await daemon.waitUntilStarted()

        let status = try await daemon.run(["ctl", "status"])
        #expect(status.status == 0, "\(status.stderr)\n\(daemon.log)")
        let state = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        #expect((state?["calls"] as? [Any])?.isEmpty == true && (state?["panels"] as? [Any])?.count == 1, "\(status.stdout)")

        // An earlier call, finished before the crash.
        let first = try await Sipp.run(scenario: BewardScenarios.panelCall(hangupAfter: .milliseconds(800), video: false),
                                       name: "first", remote: try daemon.hostPort(), service: "resident", timeout: .seconds(10))
        #expect(first.succeeded, "\(first)\n\(daemon.log)")
        let firstEnded = try await daemon.waitForEvent("call_ended")
        let firstCall = try #require(firstEnded.string("call"))

        // A call in progress across SIGHUP, then the daemon dies hard.
        let panel = try Sipp(scenario: BewardScenarios.panelCall(hangupAfter: .seconds(10), video: false), name: "second",
                             remote: try daemon.hostPort(), service: "resident", timeout: .seconds(15))
        let answered = try await daemon.waitForEvent("call_answered") { $0.string("call") != firstCall }
        let secondCall = try #require(answered.string("call"))
        kill(daemon.process.pid, SIGHUP)
        await TestPatience.eventually(within: .seconds(5)) { daemon.log.contains("SIGHUP: config reloaded") }
        #expect(daemon.process.isRunning, "\(daemon.log)")
        #expect(!daemon.events.contains { $0.name == "call_ended" && $0.string("call") == secondCall }, "\(daemon.events)")
        #expect(daemon.log.contains("SIGHUP: config reloaded"), "\(daemon.log)")
        let during = try await daemon.run(["ctl", "status"])
        #expect(during.stdout.contains("\"\(secondCall)\""), "call missing from status after SIGHUP: \(during.stdout)")

        kill(daemon.process.pid, SIGKILL)
        _ = try? await daemon.process.waitForExit(timeout: .seconds(5))
        _ = await panel.stop()

        let noDaemon = try await daemon.run(["ctl", "status"])
        #expect(noDaemon.status == 69 && noDaemon.stderr.contains("no daemon listening on"), "\(noDaemon)")

        let log = try await daemon.run(["log", "--json"])
        #expect(log.status == 0, "\(log.stderr)")
        let entries = Self.jsonLines(log.stdout)
        let earlier = try #require(entries.first { $0["call"] as? String == firstCall }, "\(log.stdout)")
        #expect(earlier["outcome"] as? String == "remote_hangup" && earlier["answered_by"] as? String == "auto", "\(earlier)")
        #expect(earlier["panel"] as? String == "entrance")
        let cut = try #require(entries.first { $0["call"] as? String == secondCall }, "\(log.stdout)")
        #expect(cut["outcome"] is NSNull && cut["answered_by"] as? String == "auto", "\(cut)")
        let table = try await daemon.run(["log", "--panel", "entrance", "--since", "1h"])
        #expect(table.stdout.contains("remote_hangup") && table.stdout.contains("in progress"), "\(table.stdout)")
        // Each row starts with the id `log --play` takes.
        let earlierID = try #require(earlier["id"] as? Int)
        #expect(table.stdout.split(separator: "\n").contains { $0.hasPrefix("\(earlierID) ") && $0.contains("remote_hangup") },
                "\(table.stdout)")

        let hookLines = (try? String(contentsOfFile: hookOutput, encoding: .utf8)) ?? ""
        #expect(hookLines.contains("call_answered \(firstCall) entrance"), "hook output: \(hookLines)\n\(daemon.log)")
    }
}

/// `intercom ctl mute` / `speaker`: the socket had them, the command line did not.
@Suite("daemon: ctl mute and speaker", .removesTestFolders) struct DaemonCtlAudioTests {
    @Test("ctl mute on, status shows it, ctl mute toggles back; a wrong word is a usage error")
    func muteFromTheCommandLine() async throws {
        let daemon = try DaemonProcess(config: DaemonProcess.autoAnsweringPanelConfig(), name: "ctl-audio")
        try await withCleanup({ _ = await daemon.stop() }) {
            try await daemon.waitUntilStarted()
            let on = try await daemon.run(["ctl", "mute", "on"])
            #expect(on.status == 0 && on.stdout.contains("\"muted\":true"), "\(on)")
            let status = try await daemon.run(["ctl", "status"])
            #expect(status.stdout.contains("\"muted\" : true") || status.stdout.contains("\"muted\": true"), "\(status.stdout)")
            let toggled = try await daemon.run(["ctl", "mute"])
            #expect(toggled.stdout.contains("\"muted\":false"), "\(toggled)")
            let speaker = try await daemon.run(["ctl", "speaker", "off"])
            #expect(speaker.status == 0 && speaker.stdout.contains("\"speaker\":false"), "\(speaker)")
            let wrong = try await daemon.run(["ctl", "mute", "maybe"])
            #expect(wrong.status == 64 && wrong.stderr.contains("takes on, off or nothing"), "\(wrong)")
            _ = try await daemon.waitForEvent("audio_changed", timeout: .seconds(5))
        }
    }
}
