import Foundation
import Testing
import IntercomBase
import IntercomTestSupport

/// Three desk daemons (the real binary) on one private PostgreSQL 15 (issue 40): a switch made at
/// one desk holds at the others within 2 s, from either side, through the site's store.
@Suite("daemon: a site of three desks", .removesTestFolders) struct DaemonSiteTests {
    /// `sip`: the config's other sections (default: the auto-answering panel's); `siteLines`: more `[site]` keys.
    static func config(desk: String, url: String, passwordFile: String, sip: String? = nil, siteLines: String = "") -> String {
        (sip.map { $0 + "\n\n" } ?? DaemonProcess.autoAnsweringPanelConfig() + "\n\n") + """
        [site]
        url = \(url)
        password_file = \(passwordFile)
        desk = \(desk)
        operator = op-\(desk.lowercased())
        """ + (siteLines.isEmpty ? "" : "\n" + siteLines)
    }

    /// A private PostgreSQL with database `site`, and a started daemon per name in `names`, for `body`.
    static func site(_ names: [String], sip: String? = nil, siteLines: String = "",
                     _ body: (PostgresServer, String, [DaemonProcess]) async throws -> Void) async throws {
        let postgres = try await PostgresServer()
        try await postgres.start()
        let database = try await postgres.createDatabase("site")
        let secrets = try TestDirectory(prefix: "intercom-site-secret")
        let passwordFile = secrets.file("password").path
        guard FileManager.default.createFile(atPath: passwordFile, contents: Data(postgres.password.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw HarnessError("cannot write \(passwordFile)")
        }
        let desks = try names.map { desk in
            try DaemonProcess(config: Self.config(desk: desk, url: postgres.tcpURL(database), passwordFile: passwordFile, sip: sip,
                                                 siteLines: siteLines),
                              name: "desk-\(desk.lowercased())")
        }
        try await withCleanup({
            for desk in desks { _ = await desk.stop() }
            await postgres.remove()
        }) {
            for desk in desks { try await desk.waitUntilStarted(timeout: .seconds(30)) }
            try await body(postgres, database, desks)
        }
    }

    @Test("guest on at A is on at B and C within 2 s; off at B is off at A and C")
    func aSwitchHoldsAtEveryDesk() async throws {
        try await Self.site(["A", "B", "C"]) { postgres, database, desks in
            let (a, b, c) = (desks[0], desks[1], desks[2])
            // Every desk beats at start: A lists all three online.
            let site = try await a.run(["ctl", "site", "--json"])
            #expect(site.status == 0 && ["\"A\"", "\"B\"", "\"C\""].allSatisfy(site.stdout.contains)
                    && !site.stdout.contains("\"online\":false"), "\(site)")
            let duty = try await c.run(["ctl", "duty", "off", "--operator", "carl"])
            #expect(duty.status == 0 && duty.stdout.contains("\"on_duty\":false"), "\(duty)")

            let switched = ContinuousClock.now
            let on = try await a.run(["ctl", "guest", "2h", "--panel", "entrance"])
            #expect(on.status == 0, "\(on)")
            do {
                for desk in [b, c] {
                    try await desk.waitForEvent("panel_policy", timeout: .seconds(2)) { $0.string("guest_until") != nil }
                }
            } catch {
                let rows = (try? await postgres.psql("SELECT panel, kind, value, desk FROM site_switches", database: database)) ?? "?"
                let seen = (try? await postgres.psql("SELECT name, last_seen FROM site_desks", database: database)) ?? "?"
                throw HarnessError("\(error)\n--- switches: \(rows)\n--- desks: \(seen)\n--- A:\n\(a.log)\n--- B:\n\(b.log)\n--- C:\n\(c.log)")
            }
            print("site: guest on at A seen at B and C after \(ContinuousClock.now - switched)")

            let off = try await b.run(["ctl", "guest", "off", "--panel", "entrance"])
            #expect(off.status == 0, "\(off)")
            for desk in [a, c] {
                // The last policy says off, after one that said on.
                try await desk.waitForEvent("panel_policy", timeout: .seconds(2)) { _ in
                    let policies = desk.events.filter { $0.name == "panel_policy" }
                    return policies.last?.string("guest_until") == nil && policies.dropLast().contains { $0.string("guest_until") != nil }
                }
            }
            // Kept at the site with who switched it.
            let kept = try await postgres.psql("SELECT value || ' ' || desk FROM site_switches WHERE kind = 'guest' ORDER BY at DESC, id DESC LIMIT 1", database: database)
            #expect(kept == "off B", "\(kept)\n\(b.log)")
        }
    }

    @Test("PostgreSQL stopped: A and B switch the same switches, each later once; back, every desk holds the later ones, the losers say so")
    func switchesMadeAtTwoDesksDuringAnOutageEndAsTheLaterOneEverywhere() async throws {
        try await Self.site(["A", "B"]) { postgres, _, desks in
            let (a, b) = (desks[0], desks[1])
            await postgres.stop()
            // Do-not-disturb: A's off, then B's on (later). Guest mode: B's on, then A's off (later).
            for (desk, command) in [(a, ["calls", "off"]), (b, ["calls", "on"]), (b, ["guest", "2h"]), (a, ["guest", "off"])] {
                let done = try await desk.run(["ctl"] + command + ["--panel", "entrance"])
                #expect(done.status == 0, "\(command): \(done)")
                try await desk.waitForEvent("site_unreachable", timeout: .seconds(10))
            }
            // A screen attached now, long after the one site_unreachable, says it in its title at once (the attach's state).
            let screen = try await Self.attachedScreen(a)
            try await withCleanup({ await screen.kill() }) {
                _ = try await screen.waitForScreen(containing: "waiting for calls — site unreachable", timeout: .seconds(10))
                try await postgres.start()
                let back = ContinuousClock.now
                try await Self.theLaterSwitchesHold(a, b, since: back)
                // Back: the title says it no more, the recent lines say the store answers again.
                let normal = try await screen.waitForScreen(containing: "site reachable again", timeout: .seconds(10))
                #expect(!normal.contains("— site unreachable"), "\(normal)")
            }
        }
    }

    /// The screen `intercom tui` attached to `daemon` in tmux (the caller kills it).
    static func attachedScreen(_ daemon: DaemonProcess) async throws -> Tmux {
        var env: [String: String] = ["TERM": "tmux-256color"]
        for (key, value) in try IntercomBinary.environment(in: daemon.directory) { if let value { env[key] = value } }
        return try await Tmux(command: "env -u NO_COLOR -u INTERCOM_CONFIG '\(try IntercomBinary.path())' tui --config '\(daemon.configURL.path)'"
                                  + " --no-bell --no-notify --no-ring; sleep 30", width: 160, height: 30, environment: env)
    }

    /// After the outage of `switchesMadeAtTwoDesksDuringAnOutageEndAsTheLaterOneEverywhere`: both desks hold the later switches.
    static func theLaterSwitchesHold(_ a: DaemonProcess, _ b: DaemonProcess, since back: ContinuousClock.Instant) async throws {
        for desk in [a, b] {
            let reachable = try await desk.waitForEvent("site_reachable", timeout: .seconds(20))
            #expect((reachable.fields["replayed"] as? Int ?? 0) >= 2, "\(reachable)")
        }
        // A's do-not-disturb comes back on (B's), B's guest mode goes off (A's), whichever replayed first.
        try await a.waitForEvent("panel_policy", timeout: .seconds(20)) { _ in
            a.events.last { $0.name == "panel_policy" }?.fields["calls"] as? Bool == true
        }
        try await b.waitForEvent("panel_policy", timeout: .seconds(20)) { _ in
            let policies = b.events.filter { $0.name == "panel_policy" }
            return policies.last?.string("guest_until") == nil && policies.contains { $0.string("guest_until") != nil }
        }
        print("site: the store back, the later switches held at A and B after \(ContinuousClock.now - back)")
        for desk in [a, b] {
            let status = try await desk.run(["ctl", "status", "--json"])
            guard case .array(let switches)? = JSONValue.parse(status.stdout)?["site"]?["switches"] else {
                Issue.record("no site.switches in ctl status: \(status)")
                continue
            }
            let won = Dictionary(uniqueKeysWithValues: switches.compactMap { change in
                change["kind"]?.stringValue.map { ($0, "\(change["value"]?.stringValue ?? "?") at \(change["desk"]?.stringValue ?? "?")") }
            })
            #expect(won == ["calls": "on at B", "guest": "off at A"], "\(status.stdout)")
            #expect(desk.events.filter { $0.name == "site_unreachable" }.count == 1, "\(desk.log)")
        }
        // Each loser's `ctl status` lists its change that lost (`site.lost`).
        for (desk, kind) in [(a, "calls"), (b, "guest")] {
            var seen = ""
            let listed = await TestPatience.eventually(within: .seconds(5)) {
                seen = (try? await desk.run(["ctl", "status", "--json"]).stdout) ?? ""
                guard case .array(let lost)? = JSONValue.parse(seen)?["site"]?["lost"] else { return false }
                return lost.map { $0["kind"]?.stringValue } == [kind]
            }
            #expect(listed, "\(seen)")
        }
        // Each loser's log says what it lost to (its stderr may trail the events on stdout).
        for (desk, lost, winner) in [(a, "calls on entrance switched here to off", "lost to on at B by op-b"),
                                     (b, "guest on entrance switched here to 20", "lost to off at A by op-a")] {
            let said = await TestPatience.eventually(within: .seconds(5)) { desk.log.contains(lost) && desk.log.contains(winner) }
            #expect(said, "\(desk.log)")
        }
    }
}
