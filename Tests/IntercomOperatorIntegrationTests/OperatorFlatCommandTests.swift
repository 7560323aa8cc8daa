import Foundation
import Synchronization
import IntercomTestSupport
import Testing
@testable import IntercomCLI
import IntercomOperator
import IntercomBase

/// settings, share, log and the confirmation-call login through the binary, against a stub that
/// keeps the flat's settings and answers with the observed bodies.
@Suite(.serialized) struct OperatorFlatCommandTests {
    static let token = "7d1f0b9e-token-of-the-flat"

    final class FlatState: Sendable {
        let settings = Mutex<[String: String]>(["CMS": "t", "VoIP": "t", "autoOpen": "1970-01-01 00:00:00", "whiteRabbit": "0",
                                                 "doorCode": "12345", "FRSDisabled": "f"])
        let checks = Atomic<Int>(0)
    }

    final class Operator: Sendable {
        let server: OperatorStubServer
        let directory: TestDirectory
        let config: URL
        let state = FlatState()

        init(flatCall: Bool = false, config extra: String = "") throws {
            let token = OperatorFlatCommandTests.token
            let state = state
            server = try OperatorStubServer { request in
                switch request.path {
                case "/mobile/user/requestCode":
                    return flatCall ? .ok(#"{"method":"outgoingCall","confirmationNumbers":["74950000001"]}"#) : .ok(#"{"method":"sms"}"#)
                case "/mobile/user/checkPhone":
                    // Not seen the call yet, twice.
                    guard state.checks.add(1, ordering: .sequentiallyConsistent).newValue > 2 else { return .error(404, "Not found") }
                    return .ok(#"{"accessToken":"\#(token)","names":{"name":"Anna"}}"#)
                case "/mobile/user/confirmCode":
                    return .ok(#"{"accessToken":"\#(token)","names":{"name":"Anna"}}"#)
                default: break
                }
                guard request.headers["authorization"] == "Bearer \(token)" else { return .error(401, "Не авторизован") }
                switch request.path {
                case "/mobile/address/getSettingsList":
                    return .ok(#"[{"flatId":"7","flatNumber":"12","houseId":"1","address":"Test Street, 1, кв. 12","flatOwner":"t","hasGates":"f","hasPlog":"t"}]"#)
                case "/mobile/address/intercom":
                    if let changes = request.json["settings"] as? [String: String] {
                        state.settings.withLock { $0.merge(changes) { $1 } }
                    }
                    let current = state.settings.withLock { $0 }.merging(["allowDoorCode": "t"]) { $1 }
                    let body = String(decoding: (try? JSONSerialization.data(withJSONObject: current)) ?? Data(), as: UTF8.self)
                    return .ok(body)
                case "/mobile/address/access": return .noContent
                case "/mobile/address/resetCode":
                    state.settings.withLock { $0["doorCode"] = "4321" }
                    return .ok(#"{"code":4321}"#)
                case "/mobile/address/plogDays": return .ok(#"[{"day":"2026-12-01","events":2}]"#)
                case "/mobile/address/plog":
                    return .ok(#"[{"date":"2026-12-01 10:13:59","uuid":"a1","previewType":0,"mechanizmaDescription":"Entrance 1","event":"4","detailX":{"phone":"79123456781"}},{"date":"2026-12-01 10:20:00","uuid":"a2","mechanizmaDescription":"Entrance 1","event":"1","detailX":{}},{"date":"2026-12-01 10:30:00","uuid":"a3","mechanizmaDescription":"Gate","event":"9","detailX":{"vehicle":{"vehicleBox":[1,2,3,4],"plateKeyPoints":[],"plateNumber":"A123BC"}}},{"date":"2026-12-01 10:40:00","uuid":"a4","mechanizmaDescription":"Entrance 1","event":"5","detailX":{"face":{"left":"1","top":"2","width":"3","height":"4"},"faceId":"17","flags":["canLike"]}}]"#)
                default: return .error(404, "Not found")
                }
            }
            directory = try TestDirectory(prefix: "intercom-operator-flat")
            config = try IntercomBinary.writeConfig("[operator home]\napi = \(server.baseURL)\nphone = 79123456781\n\(extra)", in: directory)
        }

        func run(_ arguments: [String], stdin: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
            let binary = try IntercomBinary.path()
            let args = arguments + ["--config", config.path]
            let environment = try IntercomBinary.environment(in: directory)
            guard let stdin else {
                return try await Subprocess.run(binary, args, environment: environment, logDirectory: directory.url,
                                                timeout: .seconds(30))
            }
            return try await Subprocess.run("/bin/bash", ["-c", "printf '%s\\n' \"$1\" | \"$0\" \"${@:2}\"", binary, stdin] + args,
                                            environment: environment, logDirectory: directory.url, timeout: .seconds(30))
        }
    }

    @Test func settingsRoundTrip() async throws {
        let op = try Operator()
        try await withCleanup({ op.server.stop() }) {
            #expect(try await op.run(["login"], stdin: "1001").status == 0)
            let set = try await op.run(["settings", "home", "cms=off", "white_rabbit=5", "auto_open=2h", "--json"])
            #expect(set.status == 0, "\(set)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(set.stdout.utf8)) as? [String: Any])
            #expect(json["cms"] as? Bool == false)
            #expect(json["voip"] as? Bool == true)
            #expect(json["white_rabbit"] as? Int == 5)
            #expect(json["door_code"] as? String == "12345")
            #expect((json["auto_open"] as? String)?.count == 19)
            #expect(op.state.settings.withLock { $0["CMS"] } == "f")
            let read = try await op.run(["settings"])
            #expect(read.status == 0)
            #expect(read.stdout.contains("white_rabbit  5 min"), "\(read.stdout)")
            let frsLine = read.stdout.split(separator: "\n").first { $0.hasPrefix("  frs ") }
            #expect(frsLine?.hasSuffix(" on (read only)") == true, "\(read.stdout)")
            let refused = try await op.run(["settings", "door_code=1"])
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("door_code takes only 'new'"))
            let frs = try await op.run(["settings", "frs=off"])
            #expect(frs.status == 64)
            #expect(frs.stderr.contains("never reads it"), "\(frs.stderr)")
            let reset = try await op.run(["settings", "door_code=new", "--json"])
            #expect(reset.status == 0, "\(reset)")
            #expect(reset.stdout.contains(#""door_code":"4321""#), "\(reset.stdout)")
            #expect(op.server.requests.contains { $0.path == "/mobile/address/resetCode" && $0.json["flatId"] as? Int == 7 })
        }
    }

    /// Adding sends no end time (the server ignores it, and on a server in another zone a near one
    /// could read as past and remove) and says the operator will not end it; removing sends a
    /// time two days back in the operator's zone, never 1970 (a UTC server reads that as now and adds).
    @Test func shareAddsWithoutAnEndAndRemovesWithAPastTime() async throws {
        let op = try Operator(config: "language = ru\n")
        try await withCleanup({ op.server.stop() }) {
            #expect(try await op.run(["login", "--sms"], stdin: "1001").status == 0)
            #expect(op.server.requests.first { $0.path == "/mobile/user/requestCode" }?.json["method"] as? String == "sms")
            let share = try await op.run(["share", "8 912 345-67-82", "--until", "1d"])
            #expect(share.status == 0, "\(share)")
            #expect(share.stdout.contains("+79123456782 has access; the operator will not end it"), "\(share.stdout)")
            #expect(!share.stdout.contains("until"))
            let access = try #require(op.server.requests.last { $0.path == "/mobile/address/access" })
            #expect(access.json["guestPhone"] as? String == "79123456782")
            #expect(access.json["flatId"] as? Int == 7)
            #expect(access.json["expire"] == nil)
            // The server writes messages to the guest in the requester's language.
            #expect(access.headers["accept-language"] == "ru")
            let removed = try await op.run(["share", "79123456782", "--remove"])
            #expect(removed.status == 0, "\(removed)")
            #expect(removed.stdout.contains("access of +79123456782 removed"))
            let remove = try #require(op.server.requests.last { $0.path == "/mobile/address/access" })
            let expire = try #require(remove.json["expire"] as? String)
            // ext/options names no zone here: Moscow, SmartYard's default.
            let sent = try #require(OperatorTime.parse(expire, timeZone: OperatorClient.defaultTimeZone))
            #expect(abs(sent.timeIntervalSinceNow + 2 * 86400) < 120, "\(expire)")
            // The flat's list is read back after the removal.
            #expect(op.server.requests.last?.path == "/mobile/address/getSettingsList")
        }
    }

    @Test func logShowsTheOperatorsEvents() async throws {
        let op = try Operator()
        try await withCleanup({ op.server.stop() }) {
            #expect(try await op.run(["login"], stdin: "1001").status == 0)
            let log = try await op.run(["log", "--json"])
            #expect(log.status == 0, "\(log)")
            let lines = log.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(lines.map { $0["event"] as? String } == ["opened_by_app", "call_missed", "opened_by_plate", "opened_by_face"])
            #expect(lines.allSatisfy { $0["operator"] as? String == "home" })
            #expect((lines[2]["detail"] as? [String: Any])?["plate"] as? String == "A123BC")
            let table = try await op.run(["log"])
            #expect(table.stdout.contains("opened by app"))
            // Who opened: the plate's number and the face's id, named.
            #expect(table.stdout.contains("plate A123BC") && table.stdout.contains("face 17"), "\(table.stdout)")
            #expect(try await op.run(["log", "--local"]).stdout.contains("opened by app") == false)
        }
    }

    /// With a fresh copy in the journal (a daemon syncing), `log` reads it and asks the operator
    /// nothing; `--operator` asks live, and an entry in both shows once; a stale copy is asked again.
    @Test func logUsesTheDaemonsCopyAndAsksLiveWithoutDuplicates() async throws {
        let op = try Operator()
        try await withCleanup({ op.server.stop() }) {
            #expect(try await op.run(["login"], stdin: "1001").status == 0)
            let environment = try IntercomBinary.environment(in: op.directory).compactMapValues { $0 }
            let journal = try Journal(directory: JournalLocation.directory(JournalSettings(), environment: environment))
            let flat = OperatorFlat(flatId: "7", address: "Test Street, 1, кв. 12", hasPlog: true)
            func copy(_ uuid: String, _ time: Date) -> JournalEntry {
                .operatorEvent(operator: "home", event: "opened_by_key", eventText: "opened by key", uuid: uuid, time: time,
                               door: "Entrance 1", who: "KEY-1", flat: flat.flatId, address: flat.address,
                               pictureURL: nil, detail: .object([("key", .string("KEY-1"))]))
            }
            // "a1" is also in the operator's live log; "old" only in the copy.
            try journal.recordOperatorEvent(copy("a1", Date(timeIntervalSince1970: 1_764_573_239)))
            try journal.recordOperatorEvent(copy("old", Date(timeIntervalSince1970: 1_764_400_000)))
            try journal.operatorSynced("home", at: Date())

            func uuids(_ output: String) -> [String] {
                output.split(separator: "\n").compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["uuid"] as? String
                }
            }
            let before = op.server.requests.count
            let offline = try await op.run(["log", "--json"])
            #expect(offline.status == 0, "\(offline)")
            #expect(uuids(offline.stdout) == ["old", "a1"])
            #expect(offline.stdout.contains("\"operator\":\"home\"") && offline.stdout.contains("\"event\":\"opened_by_key\""))
            #expect(!op.server.requests.dropFirst(before).contains { $0.path.hasPrefix("/mobile/address/plog") })
            let table = try await op.run(["log", "--local"])
            #expect(table.stdout.contains("home: Entrance 1") && table.stdout.contains("opened by key"), "\(table.stdout)")

            let live = try await op.run(["log", "--json", "--operator", "home"])
            #expect(live.status == 0, "\(live)")
            // a1 once, as the operator says it now; a2 from the operator; old from the copy.
            #expect(uuids(live.stdout) == ["old", "a1", "a2", "a3", "a4"], "\(live.stdout)")
            #expect(live.stdout.contains("\"event\":\"opened_by_app\""))

            try journal.operatorSynced("home", at: Date(timeIntervalSinceNow: -3600))
            let stale = try await op.run(["log", "--json"])
            #expect(uuids(stale.stdout) == ["old", "a1", "a2", "a3", "a4"], "\(stale.stdout)")
        }
    }

    @Test func loginByConfirmationCall() async throws {
        let op = try Operator(flatCall: true)
        try await withCleanup({ op.server.stop() }) {
            let login = try await op.run(["login", "--wait", "20"])
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout.contains("call +74950000001 from +79123456781"))
            #expect(login.stdout.contains("logged in to home as Anna"))
            #expect(op.state.checks.load(ordering: .sequentiallyConsistent) == 3)
            #expect(!login.stdout.contains(Self.token))
        }
    }

    @Test func severalFlatsNeedFlat() {
        let flats = [OperatorFlat(flatId: "7", flatNumber: "12", address: "A"), OperatorFlat(flatId: "9", flatNumber: "3", address: "B")]
        guard case .failure(let many) = OperatorSelection.flat(flats, choice: nil, operatorName: "home", command: "settings") else {
            Issue.record("two flats were not refused")
            return
        }
        #expect(many.code == 64)
        #expect(many.message.contains("--flat"))
        #expect((try? OperatorSelection.flat(flats, choice: "9", operatorName: "home", command: "settings").get())?.flatId == "9")
        #expect((try? OperatorSelection.flat(flats, choice: "12", operatorName: "home", command: "settings").get())?.flatId == "7")
    }
}
