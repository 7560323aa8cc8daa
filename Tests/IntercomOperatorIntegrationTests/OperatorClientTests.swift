import Foundation
import IntercomTestSupport
import Testing
@testable import IntercomOperator
import IntercomBase

/// The client over real loopback HTTP against canned SmartYard answers.
@Suite struct OperatorClientTests {
    func client(_ server: OperatorStubServer, token: String? = "tok-1", timeout: Duration = .seconds(5)) throws -> OperatorClient {
        try OperatorClient(config: OperatorConfig(name: "home", api: server.baseURL), token: token, timeout: timeout)
    }

    /// The OperatorError `body` throws; nil (and an issue) when it throws nothing or something else.
    func caught(_ body: () async throws -> Void) async -> OperatorError? {
        do {
            try await body()
            Issue.record("no error was thrown")
        } catch let error as OperatorError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    @Test func loginSendsThePhoneAndDeviceIdAndNoToken() async throws {
        let server = try OperatorStubServer { request in
            switch request.path {
            case "/mobile/user/requestCode": return .ok(#"{"method":"sms"}"#)
            case "/mobile/user/confirmCode":
                return .ok(#"{"accessToken":"3b8e4c1a-token","names":{"name":"Ivan","patronymic":"","last":""}}"#)
            default: return .error(404, "Not found")
            }
        }
        try await withCleanup({ server.stop() }) {
            let api = try client(server, token: nil)
            #expect(try await api.requestCode(phone: "79123456781", deviceId: "dev-1") == .sms)
            let grant = try await api.confirmCode(phone: "79123456781", code: "1001", deviceId: "dev-1")
            #expect(grant.token == "3b8e4c1a-token")
            let requests = server.requests
            #expect(requests.count == 2)
            #expect(requests.allSatisfy { $0.headers["authorization"] == nil })
            #expect(requests.allSatisfy { $0.headers["content-type"] == "application/json" })
            let confirm = requests[1].json
            #expect(confirm["userPhone"] as? String == "79123456781")
            #expect(confirm["smsCode"] as? String == "1001")
            #expect(confirm["deviceToken"] as? String == "dev-1")
            #expect(confirm["platform"] as? Int == 2)
            #expect(requests.allSatisfy { !$0.path.contains("phone=") })
        }
    }

    @Test func openDoorIsAcceptedOnNoContentWithTheBearerToken() async throws {
        let server = try OperatorStubServer { _ in .noContent }
        try await withCleanup({ server.stop() }) {
            try await client(server).openDoor(domophoneId: "1", doorId: 0)
            let request = try #require(server.requests.first)
            #expect(request.path == "/mobile/address/openDoor")
            #expect(request.headers["authorization"] == "Bearer tok-1")
            #expect(request.json["domophoneId"] as? Int == 1)
            #expect(request.json["doorId"] as? Int == 0)
        }
    }

    @Test func pingChecksTheToken() async throws {
        let server = try OperatorStubServer { request in
            request.headers["authorization"] == "Bearer tok-1" ? .noContent : .error(401, "Не авторизован")
        }
        try await withCleanup({ server.stop() }) {
            try await client(server).ping()
            #expect(server.requests.last?.path == "/mobile/user/ping")
            let error = await caught { try await client(server, token: "old").ping() }
            #expect(error?.kind == .loginExpired(status: 401))
        }
    }

    @Test func aRevokedTokenAsksForLogin() async throws {
        let server = try OperatorStubServer { _ in .error(401, "Не авторизован") }
        try await withCleanup({ server.stop() }) {
            let error = await caught { _ = try await client(server).addresses() }
            #expect(error?.kind == .loginExpired(status: 401))
            #expect(error?.exitCode == 77)
            #expect(error?.description.contains("tok-1") == false)
        }
    }

    @Test func anUnreachableOperatorIsUnavailable() async throws {
        let server = try OperatorStubServer { _ in .noContent }
        let api = try client(server)
        server.stop()
        let error = await caught { _ = try await api.addresses() }
        guard case .unreachable = error?.kind else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(error?.exitCode == 69)
    }

    @Test func aFiftyMegabyteAnswerFailsCleanly() async throws {
        let huge = Data(#"{"code":200,"name":"OK","message":"OK","data":[""#.utf8) + Data(repeating: 0x61, count: 50 << 20)
        let server = try OperatorStubServer { _ in OperatorStubServer.Reply(status: 200, body: huge) }
        try await withCleanup({ server.stop() }) {
            let error = await caught { _ = try await client(server, timeout: .seconds(20)).addresses() }
            #expect(error?.kind == .badAnswer(detail: "larger than 8 MB"))
            #expect(error?.exitCode == 65)
        }
    }

    @Test func aNonJSONAnswerIsBadData() async throws {
        let server = try OperatorStubServer { _ in .json("<html>hello</html>") }
        try await withCleanup({ server.stop() }) {
            let error = await caught { _ = try await client(server).flats() }
            #expect(error?.exitCode == 65)
        }
    }

    @Test func settingsAndSharingSendTheFlatAndStringValues() async throws {
        let server = try OperatorStubServer { request in
            switch request.path {
            case "/mobile/address/intercom":
                return .ok(#"{"allowDoorCode":"t","doorCode":"12345","CMS":"f","VoIP":"t","autoOpen":"1970-01-01 00:00:00","whiteRabbit":"5"}"#)
            case "/mobile/address/access":
                // A non-owner removing someone else: 200 with a string, nothing done.
                return request.json["expire"] != nil ? .ok(#""Нет прав для удаления""#) : .noContent
            default: return .error(404, "Not found")
            }
        }
        try await withCleanup({ server.stop() }) {
            let api = try client(server)
            try await api.setIntercom(flatId: "7", changes: [try FlatSettingChange.parse("cms=off").get(),
                                                             try FlatSettingChange.parse("white_rabbit=5").get()])
            let set = try #require(server.requests.last?.json)
            #expect(set["flatId"] as? Int == 7)
            #expect(set["settings"] as? [String: String] == ["CMS": "f", "whiteRabbit": "5"])
            #expect(try await api.intercom(flatId: "7").cms == false)
            try await api.addAccess(flatId: "7", guestPhone: "79123456782")
            #expect(server.requests.last?.json["expire"] == nil)
            let error = await caught { try await api.removeAccess(flatId: "7", guestPhone: "79123456782") }
            #expect(error?.kind == .refusedInAnswer)
            #expect(error?.serverText == "Нет прав для удаления")
            // A 200: the server's words, never an HTTP status it did not send.
            #expect(error?.description == "home: the operator refused: Нет прав для удаления; nothing was changed", "\(String(describing: error))")
        }
    }
}

extension OperatorClientTests {
    /// Dates carry no zone: the operator's comes from ext/options, asked once; the log and the
    /// settings are read in it and auto_open is written in it.
    @Test func datesAreInTheOperatorsZone() async throws {
        let server = try OperatorStubServer { request in
            switch request.path {
            case "/mobile/ext/options": return .ok(#"{"timeZone":"Asia/Vladivostok","guestAccess":"t"}"#)
            case "/mobile/address/plog": return .ok(#"[{"date":"2026-12-01 10:00:00","event":"4"}]"#)
            case "/mobile/address/intercom": return .ok(#"{"autoOpen":"2026-12-01 20:00:00"}"#)
            default: return .error(404, "Not found")
            }
        }
        try await withCleanup({ server.stop() }) {
            let api = try client(server)
            let entry = try #require(try await api.plog(flatId: "1", day: "2026-12-01").first)
            // Vladivostok is UTC+10.
            #expect(RFC3339.string(entry.time).hasPrefix("2026-12-01T00:00:00"))
            let settings = try await api.intercom(flatId: "1")
            #expect(settings.autoOpen.map(RFC3339.string)?.hasPrefix("2026-12-01T10:00:00") == true)
            let until = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC
            try await api.setIntercom(flatId: "1", changes: [FlatSettingChange(key: "auto_open", wireKey: "autoOpen",
                                                                               wireValue: "", until: until)])
            let sent = server.requests.last?.json["settings"] as? [String: String]
            #expect(sent?["autoOpen"] == "2027-01-15 18:00:00")
            #expect(server.requests.filter { $0.path.hasSuffix("ext/options") }.count == 1)
        }
    }

    @Test func withoutOptionsTheZoneIsMoscow() async throws {
        let server = try OperatorStubServer { _ in .error(404, "Not found") }
        try await withCleanup({ server.stop() }) {
            let api = try client(server)
            #expect(await api.timeZone().identifier == "Europe/Moscow")
        }
    }
}

extension OperatorClientTests {
    /// ext/options names Vladivostok but the server's PHP writes UTC: the log entry of the client's
    /// own opening shows it, the offset is kept beside the token, and later clients read in UTC.
    /// `[operator] timezone` wins over both and asks ext/options nothing.
    @Test func theZoneIsLearnedFromAnOwnOpeningOrNamed() async throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let server = try OperatorStubServer { request in
            switch request.path {
            case "/mobile/ext/options": return .ok(#"{"timeZone":"Asia/Vladivostok"}"#)
            case "/mobile/address/openDoor": return .noContent
            case "/mobile/address/plog":
                let now = OperatorTime.format(Date(), timeZone: utc)
                return .ok(#"[{"date":"\#(now)","event":"4","objectId":"1","objectMechanizma":"0","detailX":{"phone":"79123456781"}}]"#)
            default: return .error(404, "Not found")
            }
        }
        try await withCleanup({ server.stop() }) {
            let directory = try TestDirectory(prefix: "intercom-operator-zone")
            let store = OperatorTokenStore(directory: directory.path + "/operators")
            try store.save(OperatorCredentials(deviceId: "d", token: "t"), for: "home")
            let config = OperatorConfig(name: "home", api: server.baseURL, phone: "79123456781")
            let first = try OperatorClient(config: config, token: "t", store: store)
            #expect(await first.timeZone().identifier == "Asia/Vladivostok")
            try await first.openDoor(domophoneId: "1", doorId: 0)
            #expect(try store.load("home")?.zoneProbe?.domophoneId == "1")
            let entry = try #require(try await first.plog(flatId: "1", day: "2026-12-01").first)
            #expect(abs(entry.time.timeIntervalSinceNow) < 60, "\(entry.time)")
            #expect(try store.load("home")?.serverOffset == 0)
            #expect(try store.load("home")?.zoneProbe == nil)
            let later = try OperatorClient(config: config, token: "t", store: store)
            #expect(await later.timeZone().secondsFromGMT() == 0)

            var named = config
            named.timeZone = TimeZone(secondsFromGMT: 5 * 3600)
            let asked = server.requests.filter { $0.path.hasSuffix("ext/options") }.count
            let explicit = try OperatorClient(config: named, token: "t", store: store)
            #expect(await explicit.timeZone().secondsFromGMT() == 5 * 3600)
            #expect(server.requests.filter { $0.path.hasSuffix("ext/options") }.count == asked)
        }
    }
}
