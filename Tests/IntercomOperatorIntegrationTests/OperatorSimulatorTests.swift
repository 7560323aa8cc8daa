import Foundation
import IntercomBase
import IntercomTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The client against `intercom simulate-operator` (built from the reference, not from this client):
/// login with the test phone, doors, an opening the simulated panel sees, the event log that shows
/// it, settings in the operator's zone, and a revoked token.
@Suite(.serialized) struct OperatorSimulatorTests {
    /// Runs `simulate-operator ARGS` and `body` with it, its folder's environment and a config naming
    /// it `[operator home]`; stops it whatever happens.
    private func withSimulator(_ arguments: [String], prefix: String,
                               _ body: (SimulatorProcess, TestDirectory, [String: String?], URL) async throws -> Void) async throws {
        try await SimulatorProcess.withOperator(arguments, prefix: prefix) { simulator, directory, config in
            try await body(simulator, directory, try IntercomBinary.environment(in: directory), config)
        }
    }

    @Test func theWholeWalkAgainstTheSimulatedOperator() async throws {
        try await withSimulator([], prefix: "intercom-operator-sim") { simulator, directory, environment, config in
            func run(_ arguments: [String], stdin: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
                let binary = try IntercomBinary.path()
                let args = arguments + ["--config", config.path]
                guard let stdin else {
                    return try await Subprocess.run(binary, args, environment: environment, logDirectory: directory.url,
                                                    timeout: .seconds(30))
                }
                return try await Subprocess.run("/bin/bash", ["-c", "printf '%s\\n' \"$1\" | \"$0\" \"${@:2}\"", binary, stdin] + args,
                                                environment: environment, logDirectory: directory.url, timeout: .seconds(30))
            }

            #expect(try await run(["login", "--sms"], stdin: "0000").status == 77)
            let login = try await run(["login", "--sms"], stdin: "1001")
            #expect(login.status == 0, "\(login)\n\(simulator.log)")

            let doors = try await run(["doors", "--json"])
            #expect(doors.status == 0, "\(doors)")
            let list = try #require(try JSONSerialization.jsonObject(with: Data(doors.stdout.utf8)) as? [[String: Any]])
            let ids = list.compactMap { $0["id"] as? String }
            #expect(ids.contains("home:1:0"), "\(ids)")

            let open = try await run(["open", "home:1:0"])
            #expect(open.status == 0, "\(open)")
            try await simulator.waitForOutput(containing: "door opened: main", timeout: .seconds(10))

            let log = try await run(["log", "--json"])
            #expect(log.status == 0, "\(log)")
            let events = log.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let opened = try #require(events.last { $0["event"] as? String == "opened_by_app" }, "\(log.stdout)")
            #expect(opened["operator"] as? String == "home")
            // The entry is the opening just made: the simulator's PHP writes it in UTC while ext/options
            // names Moscow; the client learned the zone from this very entry, so its time is now.
            let time = (opened["time"] as? String).flatMap { ISO8601DateFormatter().date(from: $0.replacingOccurrences(of: ".000", with: "")) }
            #expect(time.map { abs($0.timeIntervalSinceNow) < 120 } == true, "\(opened)")

            let settings = try await run(["settings", "cms=off", "white_rabbit=5", "--json"])
            #expect(settings.status == 0, "\(settings)")
            #expect(settings.stdout.contains("\"cms\":false") && settings.stdout.contains("\"white_rabbit\":5"))

            simulator.signal(SIGUSR1)  // the operator revokes every token
            try await Task.sleep(for: .milliseconds(300))
            let revoked = try await run(["open", "home:1:0"])
            #expect(revoked.status == 77, "\(revoked)")
            #expect(revoked.stderr.contains("run 'intercom login home'"))
        }
    }

    /// `share --list` and `inbox` against the simulated operator: the roommate just added (the
    /// caller never listed, "no end" for the server's 3001), the unread count that `--unread`
    /// leaves as it is, the message as text with its link, and the count at 0 after reading.
    @Test func shareListAndInboxAgainstTheSimulatedOperator() async throws {
        let message = "Работы в подъезде\\nhttps://example.org/news 79001234567 \u{1B}]0;x\u{07}"
        try await withSimulator(["--no-camera", "--message", message], prefix: "intercom-operator-inbox") { _, directory, _, config in
            func run(_ arguments: [String], stdin: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
                try await IntercomBinary.run(arguments + ["--config", config.path], in: directory, stdin: stdin, timeout: .seconds(30))
            }
            let login = try await run(["login", "--sms"], stdin: "1001")
            #expect(login.status == 0, "\(login)")

            let empty = try await run(["share", "--list"])
            #expect(empty.status == 0 && empty.stdout.contains("no one else"), "\(empty)")
            #expect(try await run(["share", "79001112233"]).status == 0)
            let list = try await run(["share", "--list"])
            #expect(list.status == 0 && list.stdout.contains("+79001112233") && list.stdout.contains("inner")
                    && list.stdout.contains("no end") && !list.stdout.contains("79123456781"), "\(list)")
            let json = try await run(["share", "home", "--list", "--json"])
            #expect(json.stdout.contains(#""phone":"79001112233","role":"inner","expire":null"#), "\(json)")
            // An end this user's daemon keeps (its file, read daemon or not) shows beside the server's "no end".
            guard case .array(let rows)? = JSONValue.parse(json.stdout) else { throw HarnessError("share --list --json: \(json)") }
            let flatId = try #require(rows.first?["flat"]?.stringValue, "\(json)")
            // A whole second: the file keeps the time as a number, and a fraction read back may round
            // to another millisecond than the one RFC3339.string spells.
            let until = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 86400).rounded())
            try ShareExpiryStore(path: directory.path + "/state/intercom/share-expiries.json")
                .save([ShareExpiry(operatorName: "home", flatId: flatId, phone: "79001112233", until: until)]) { _ in }
            let kept = try await run(["share", "--list"])
            #expect(kept.status == 0 && kept.stdout.contains("(kept by this intercom)") && !kept.stdout.contains("no end"), "\(kept)")
            let keptJSON = try await run(["share", "--list", "--json"])
            #expect(keptJSON.stdout.contains(#""expire":null,"until":"\#(RFC3339.string(until))""#), "\(keptJSON)")
            // No daemon runs here: --until adds the access and says no one will end it.
            let untilAlone = try await run(["share", "79001112244", "--until", "2h"])
            #expect(untilAlone.status == 0 && untilAlone.stdout.contains("no intercom daemon runs to end it"), "\(untilAlone)")
            let phoneGiven = try await run(["share", "79001112233", "--list"])
            #expect(phoneGiven.status == 64 && phoneGiven.stderr.contains("not a phone"), "\(phoneGiven)")

            for _ in 0..<2 {
                let unread = try await run(["inbox", "--unread"])
                #expect(unread.status == 0 && unread.stdout == "home: 1 unread\n", "\(unread)")
            }
            let inbox = try await run(["inbox"])
            #expect(inbox.status == 0, "\(inbox)")
            #expect(inbox.stdout.contains("  Работы в подъезде\n") && inbox.stdout.contains("  link: https://example.org/news\n"),
                    "\(inbox.stdout)")
            // The operator's text reaches the terminal escaped: no raw ESC or BEL.
            #expect(!inbox.stdout.contains("\u{1B}") && !inbox.stdout.contains("\u{07}"), "\(inbox.stdout)")
            let after = try await run(["inbox", "--unread", "--json"])
            #expect(after.stdout == #"{"operator":"home","unread":0}"# + "\n", "\(after)")
            let again = try await run(["inbox", "--json"])
            #expect(again.stdout.contains(#""links":["https://example.org/news"]"#), "\(again)")
        }
    }
}
