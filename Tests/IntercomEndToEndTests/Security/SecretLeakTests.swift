import Foundation
import IntercomCore
@testable import IntercomSimulator
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// The passwords of a config never show up anywhere a user, a script or another program can read:
/// stdout, stderr at debug level, events, the control socket, the journal and its pictures,
/// liblinphone's files, hook environments, and the error lines of every command.
@Suite("security: secrets stay secret", .serialized, .removesTestFolders) struct SecretLeakTests {
    /// Distinctive, so a hit cannot be a coincidence. The registrar expects another password, so
    /// the SIP one is sent (as a digest) and refused; one panel takes its password, one refuses.
    static let sipSecret = "SipPw-7Qz9Kx"
    static let panelSecret = "PanelPw-4Wj2Rv"
    static let refusedPanelSecret = "BadPw-9Mv3Tc"

    /// The secrets as they could leak: verbatim, and as a Basic Authorization header carries them.
    static var needles: [String] {
        [sipSecret, panelSecret, refusedPanelSecret]
            + [panelSecret, refusedPanelSecret].map { Data("admin:\($0)".utf8).base64EncodedString() }
    }

    /// The needles found in `text`, each with where it was.
    static func leaks(in text: String, at place: String) -> [String] {
        needles.filter { text.contains($0) }.map { "\($0) in \(place)" }
    }

    /// Every file under `root` except the configs (which hold the secrets by design).
    static func leaks(under root: URL, except excluded: Set<String>) -> [String] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return ["cannot walk \(root.path)"]
        }
        var found: [String] = []
        for case let url as URL in walker where !excluded.contains(url.lastPathComponent) {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                  let data = try? Data(contentsOf: url) else { continue }
            // Binary files (SQLite, JPEG) too: decoding keeps every ASCII byte, so an ASCII secret shows.
            found += leaks(in: String(decoding: data, as: UTF8.self), at: url.path)
        }
        return found
    }

    @Test("passwords never appear in output, events, control socket, journal, pictures, liblinphone files or hooks")
    func secretsNeverLeak() async throws {
        // Basic (allowed by `auth = basic`): its Authorization header carries the password, base64'd, on every request.
        let server = SimulatedPanelHTTPServer(options: .init(user: "admin", password: Self.panelSecret, auth: .basic))
        let httpPort = try server.start()
        defer { server.stop() }
        let kamailio = try Kamailio(password: "the-registrar-wants-this-one")
        try await kamailio.start()

        let hookDirectory = try TestDirectory(prefix: "intercom-e2e-hookenv")
        let hookOutput = hookDirectory.path + "/hook-env.txt"
        let hook = try HookScript.create("#!/bin/sh\n{ echo \"== $1\"; env; } >> '\(hookOutput)'\n",
                                              named: "hook.sh", in: hookDirectory)
        let hookEvents = ["started", "registration_failed", "panel_unreachable", "call_incoming", "peephole_frame",
                          "call_answered", "door_opened", "call_ended"]
        // No unknown_callers key: the default must reject strangers.
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0
            account = sip:resident@127.0.0.1
            password = \(Self.sipSecret)
            proxy = \(kamailio.uri)

            [panel front]
            url = http://127.0.0.1:\(httpPort)
            user = admin
            auth = basic
            password = \(Self.panelSecret)
            match = sip:100001@
            auto_answer = 1
            peephole_fps = 5

            [panel back]
            url = http://127.0.0.1:\(httpPort)
            user = admin
            auth = basic
            password = \(Self.refusedPanelSecret)
            match = sip:100002@

            [hooks]
            \(hookEvents.map { "on_\($0) = \(hook)" }.joined(separator: "\n"))
            """, extraArguments: ["--log-level", "debug"], name: "secrets")
        try await daemon.waitUntilStarted()
        let failed = try await daemon.waitForEvent("registration_failed", timeout: .seconds(15))
        #expect(kamailio.log.contains("REGISTER") || failed.string("reason") != nil, "\(failed)")
        try await daemon.waitForEvent("panel_unreachable", timeout: .seconds(10)) { $0.string("panel") == "back" }

        var outputs: [(String, String)] = []
        func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            let r = try await IntercomBinary.run(arguments + ["--config", daemon.configURL.path, "--log-level", "debug"],
                                                 in: daemon.directory, timeout: .seconds(30))
            outputs.append(("intercom \(arguments.joined(separator: " "))", r.stdout + "\n" + r.stderr))
            return r
        }

        // The control socket's event stream, live through the calls.
        let events = try Subprocess(try IntercomBinary.path(), ["ctl", "events", "--config", daemon.configURL.path],
                                    name: "ctl-events", environment: try IntercomBinary.environment(in: daemon.directory),
                                    logDirectory: daemon.directory.url)
        try await events.waitForOutput(containing: "\"registration\"", in: .stdout)

        let panel = try await Sipp.run(scenario: BewardScenarios.panelCall(hangupAfter: .seconds(3), video: false),
                                       name: "secret-panel", remote: try daemon.hostPort(), service: "resident",
                                       timeout: .seconds(20))
        #expect(panel.succeeded, "\(panel)\n\(daemon.log)")
        let ended = try await daemon.waitForEvent("call_ended", timeout: .seconds(10))
        #expect(daemon.names.contains("peephole_frame"), "the panel's pictures were never fetched: \(daemon.names)")
        let stranger = try await Sipp.run(scenario: BewardScenarios.expectRejected(user: "666"), name: "stranger",
                                          remote: try daemon.hostPort(), service: "resident", timeout: .seconds(10))
        #expect(stranger.succeeded && stranger.messages.contains("SIP/2.0 403"), "a stranger was not refused\n\(stranger)")

        let status = try await run(["ctl", "status"])
        #expect(status.status == 0 && status.stdout.contains("\"registration\""), "\(status)")
        let refusedOpen = try await run(["ctl", "open", "--panel", "back"])
        #expect(refusedOpen.status != 0, "\(refusedOpen)")
        #expect(try await run(["snapshot", "front", "-o", daemon.directory.path + "/front.jpg"]).status == 0)
        #expect(try await run(["snapshot", "back", "-o", daemon.directory.path + "/back.jpg"]).status == 77)
        #expect(try await run(["open", "back"]).status == 77)
        #expect(try await run(["open", "front", "--door", "alt"]).status == 0)
        let doctor = try await run(["doctor"])
        #expect(doctor.stdout.contains("registration of sip:resident@127.0.0.1 failed"), "\(doctor.stdout)")
        #expect(try await run(["config", "--check"]).status == 0)
        #expect(try await run(["log", "--json"]).stdout.contains("\"front\""))

        try await Task.sleep(for: .milliseconds(500))
        await events.stop()
        outputs.append(("intercom ctl events", events.stdout + events.stderr))
        #expect(events.stdout.contains("call_answered"), "ctl events saw no call: \(events.stdout)")
        let exit = await daemon.stop()
        #expect(exit == 0, "\(daemon.log)")
        outputs.append(("intercom daemon", daemon.log))

        // What was scanned really holds what a leak would be mixed into.
        let hookText = (try? String(contentsOfFile: hookOutput, encoding: .utf8)) ?? ""
        for event in ["registration_failed", "panel_unreachable", "call_answered", "call_ended"] {
            #expect(hookText.contains("INTERCOM_EVENT=\(event)"), "no \(event) hook ran: \(hookText.prefix(400))")
        }
        #expect(daemon.log.contains("debug:") || daemon.log.contains("<7>"), "not at debug level: \(daemon.log.suffix(500))")
        let dataFiles = FileManager.default.enumerator(atPath: daemon.directory.path + "/data")?.allObjects as? [String] ?? []
        #expect(dataFiles.contains { $0.hasSuffix(".jpg") } && dataFiles.contains { $0.contains("journal") || $0.hasSuffix(".db") },
                "no journal or pictures to scan: \(dataFiles)")
        #expect(ended.string("reason") == "remote_hangup", "\(ended)")

        var leaks: [String] = []
        for (place, text) in outputs { leaks += Self.leaks(in: text, at: place) }
        leaks += Self.leaks(under: daemon.directory.url, except: ["config.ini"])
        leaks += Self.leaks(under: hookDirectory.url, except: [])
        #expect(leaks.isEmpty, "secrets leaked:\n\(leaks.joined(separator: "\n"))")
        await kamailio.stop()
    }

    @Test("a password written into a URL is refused at load and never echoed")
    func passwordsInURLsAreRefusedUnechoed() async throws {
        let dir = try TestDirectory(prefix: "intercom-e2e-urlsecret")
        let cases = [
            "[panel p]\nurl = http://admin:\(Self.panelSecret)@127.0.0.1:9",
            "[panel p]\nurl = https://admin:\(Self.panelSecret)@[::1]/",
            "[sip]\naccount = sip:resident:\(Self.sipSecret)@127.0.0.1",
            "[sip]\naccount = resident:\(Self.sipSecret)@127.0.0.1",
            "[sip]\naccount = sip:resident@127.0.0.1\nproxy = sips:resident:\(Self.sipSecret)@127.0.0.1",
        ]
        for text in cases {
            let config = try IntercomBinary.writeConfig(text + "\n", in: dir)
            for command in [["config", "--check"], ["daemon"], ["doctor"]] {
                let r = try await IntercomBinary.run(command + ["--config", config.path, "--log-level", "debug"], in: dir)
                #expect(r.status == 65, "\(command) with \(text): \(r.stderr)")
                let leaks = Self.leaks(in: r.stdout + r.stderr, at: "\(command)")
                #expect(leaks.isEmpty, "\(text) leaked: \(r.stdout) \(r.stderr)")
            }
        }
    }
}
