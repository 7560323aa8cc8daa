import Foundation
import IntercomDaemon
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase

@Suite(.removesTestFolders) struct HookRunnerTests {
    /// A hook script that records its argv and INTERCOM_* environment, one per line.
    static func recordingHook(in directory: TestDirectory, output: String) throws -> String {
        return try HookScript.create("""
            #!/bin/sh
            {
              printf 'argv=%s|%s\\n' "$0" "$1"
              printf 'event=%s\\n' "$INTERCOM_EVENT"
              printf 'panel=%s\\n' "$INTERCOM_PANEL"
              printf 'call=%s\\n' "$INTERCOM_CALL"
              printf 'from=%s\\n' "$INTERCOM_FROM"
              printf 'snapshot=%s\\n' "$INTERCOM_SNAPSHOT"
              printf 'json=%s\\n' "$INTERCOM_JSON"
            } > '\(output)'
            """, named: "hook.sh", in: directory)
    }

    static func lines(_ path: String) -> [String: String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            result[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return result
    }

    @Test func hookGetsArgvAndEnvironmentAndShellMetacharactersStayLiteral() async throws {
        let directory = try TestDirectory(prefix: "intercom-hooks")
        let output = directory.path + "/out.txt"
        let hook = try Self.recordingHook(in: directory, output: output)
        let nasty = "front $(touch \(directory.path)/pwned); `id` 'q' \"d\" | & > x"
        let runner = HookRunner(hooks: ["call_incoming": hook], logger: .silent)
        let event = IntercomEvent(.callIncoming(.init(id: CallID("c7"), panel: nasty, from: "sip:100001@10.0.0.5")))
        let outcome = await runner.run(event, snapshot: "/tmp/pic one.jpg")
        #expect(outcome == .exited(0))
        let seen = Self.lines(output)
        #expect(seen["argv"] == "\(hook)|call_incoming")
        #expect(seen["event"] == "call_incoming" && seen["call"] == "c7" && seen["from"] == "sip:100001@10.0.0.5")
        #expect(seen["panel"] == nasty)
        #expect(seen["snapshot"] == "/tmp/pic one.jpg")
        #expect(seen["json"] == event.json.encoded)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/pwned"))
        #expect(await runner.run(IntercomEvent(.error(message: "x")), snapshot: nil) == nil)
    }

    @Test func hangingHookIsKilledAtItsTimeout() async throws {
        let directory = try TestDirectory(prefix: "intercom-hooks")
        // Ignores SIGTERM, so only the SIGKILL after the grace period ends it.
        let hang = try HookScript.create("#!/bin/sh\ntrap '' TERM\nwhile :; do sleep 0.05; done\n", named: "hang.sh", in: directory)
        let runner = HookRunner(hooks: ["call_incoming": hang], logger: .silent, timeout: .milliseconds(300))
        let start = ContinuousClock.now
        let outcome = await runner.run(IntercomEvent(.callIncoming(.init(id: CallID("c1"), panel: "p", from: "sip:x@y"))),
                                       snapshot: nil)
        let elapsed = ContinuousClock.now - start
        #expect(outcome == .timedOut)
        #expect(elapsed < .seconds(4), "took \(elapsed)")
    }

    @Test func failingAndMissingHooksAreReportedNotThrown() async throws {
        let directory = try TestDirectory(prefix: "intercom-hooks")
        let fail = try HookScript.create("#!/bin/sh\nexit 3\n", named: "fail.sh", in: directory)
        let runner = HookRunner(hooks: ["call_ended": fail, "door_opened": directory.path + "/missing"], logger: .silent)
        let ended = IntercomEvent(.callEnded(.init(id: CallID("c1"), panel: "p", from: "sip:x@y"), reason: .hangup, durationSeconds: 1))
        let failed = await runner.run(ended, snapshot: nil)
        #expect(failed == .exited(3), "\(String(describing: failed))")
        let door = IntercomEvent(.doorOpened(panel: "p", call: nil, door: "main", method: "http", by: .ctl, ok: true, error: nil))
        if case .spawnFailed = await runner.run(door, snapshot: nil) {} else { Issue.record("missing hook should fail to spawn") }
    }

    /// `on_call_outgoing` once fell outside the hook list and was ignored. A call placed as
    /// `intercom call` and ctl `call` place it runs the hook, from the config file through the
    /// pipeline both the daemon and the terminal client use.
    @Test func callOutgoingHookRunsWhenACallIsPlaced() async throws {
        let directory = try TestDirectory(prefix: "intercom-hooks")
        let output = directory.path + "/out.txt"
        let hook = try Self.recordingHook(in: directory, output: output)
        let loaded = try ConfigLoader.parse(text: "[hooks]\non_call_outgoing = \(hook)\n", path: directory.path + "/config.ini",
                                            environment: ["HOME": directory.path, "XDG_RUNTIME_DIR": directory.path])
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(loaded.config.hooks == ["call_outgoing": hook])
        let s = try await IntercomCallTests.setup()
        var config = await s.intercom.config
        config.hooks = loaded.config.hooks
        config.journal = JournalSettings(path: directory.path + "/journal")
        let pipeline = EventPipeline(intercom: s.intercom, config: config, environment: [:], logger: .silent)
        do {
            let reply = try await s.intercom.execute(.call(panel: "entrance"))
            let id = try #require(reply["call"]?.stringValue)
            // The script writes `json=` last.
            await TestPatience.eventually(within: .seconds(10), every: .milliseconds(50)) { Self.lines(output)["json"] != nil }
            let seen = Self.lines(output)
            #expect(seen["argv"] == "\(hook)|call_outgoing", "\(seen)")
            #expect(seen["event"] == "call_outgoing" && seen["call"] == id && seen["panel"] == "entrance", "\(seen)")
        } catch {
            await s.stop()
            await pipeline.finish()
            throw error
        }
        await s.stop()
        await pipeline.finish()
    }
}
