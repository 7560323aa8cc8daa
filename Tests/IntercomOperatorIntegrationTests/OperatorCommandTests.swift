import Foundation
import IntercomTestSupport
import Testing

/// The operator commands as a user runs them (the real `intercom` binary), against the loopback
/// stub answering like a SmartYard server. The simulated operator takes its place end to end.
@Suite(.serialized) struct OperatorCommandTests {
    static let token = "3b8e4c1a-9f2d-4e5b-8c7a-0d1e2f3a4b5c"

    /// A stub that logs in with code 1001 and then answers with the observed bodies; `revoked`
    /// makes every authorised call a 401, `huge` makes the address list 50 MB.
    final class Operator: Sendable {
        let server: OperatorStubServer
        let directory: TestDirectory
        let config: URL

        init(revoked: Bool = false, huge: Bool = false) throws {
            let token = OperatorCommandTests.token
            server = try OperatorStubServer { request in
                switch request.path {
                case "/mobile/user/requestCode": return .ok(#"{"method":"sms"}"#)
                case "/mobile/user/confirmCode":
                    guard request.json["smsCode"] as? String == "1001" else {
                        return .error(403, "The PIN code was entered incorrectly")
                    }
                    return .ok(#"{"accessToken":"\#(token)","names":{"name":"Ivan","patronymic":"","last":"Petrov"}}"#)
                default: break
                }
                guard !revoked, request.headers["authorization"] == "Bearer \(token)" else {
                    return .error(401, "Не авторизован")
                }
                switch request.path {
                case "/mobile/address/getAddressList":
                    if huge {
                        return OperatorStubServer.Reply(status: 200, body: Data(#"{"data":[""#.utf8) + Data(repeating: 0x61, count: 50 << 20))
                    }
                    return .ok(#"[{"houseId":"1","address":"Test Street, 1","hasPlog":"t","doors":[{"domophoneId":"1","doorId":0,"icon":"entrance","name":"Entrance 1","doorCode":"12345"}],"cctv":1}]"#)
                case "/mobile/address/openDoor": return .noContent
                default: return .error(404, "Not found")
                }
            }
            directory = try TestDirectory(prefix: "intercom-operator-cli")
            config = try IntercomBinary.writeConfig("""
                [operator home]
                api = \(server.baseURL)
                phone = 8 912 345-67-81

                [panel entrance]
                url = http://127.0.0.1:9
                """, in: directory)
        }

        func run(_ arguments: [String], stdin: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
            let binary = try IntercomBinary.path()
            let args = arguments + ["--config", config.path]
            guard let stdin else {
                return try await Subprocess.run(binary, args, environment: try IntercomBinary.environment(in: directory),
                                                logDirectory: directory.url, timeout: .seconds(30))
            }
            return try await Subprocess.run("/bin/bash", ["-c", "printf '%s\\n' \"$1\" | \"$0\" \"${@:2}\"", binary, stdin] + args,
                                            environment: try IntercomBinary.environment(in: directory),
                                            logDirectory: directory.url, timeout: .seconds(30))
        }

        var tokenFile: String { directory.path + "/state/intercom/operators/home.json" }
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test func loginListOpenLogout() async throws {
        let op = try Operator()
        try await withCleanup({ op.server.stop() }) {
            let notYet = try await op.run(["open", "home:1:0"])
            #expect(notYet.status == 77)
            #expect(notYet.stderr.contains("not logged in to home; run 'intercom login home'"))

            let wrong = try await op.run(["login"], stdin: "9999")
            #expect(wrong.status == 77, "\(wrong)")
            #expect(wrong.stderr.contains("wrong confirmation code"))
            let afterWrong = String(decoding: FileManager.default.contents(atPath: op.tokenFile) ?? Data(), as: UTF8.self)
            #expect(afterWrong.contains("device_id") && !afterWrong.contains(Self.token))

            let login = try await op.run(["login", "home"], stdin: "1001")
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout.contains("logged in to home as Ivan Petrov"))
            #expect(mode(op.tokenFile) == 0o600)
            #expect(mode((op.tokenFile as NSString).deletingLastPathComponent) == 0o700)
            let stored = String(decoding: FileManager.default.contents(atPath: op.tokenFile) ?? Data(), as: UTF8.self)
            #expect(stored.contains(Self.token))
            let confirm = try #require(op.server.requests.last { $0.path.hasSuffix("confirmCode") })
            #expect(confirm.json["userPhone"] as? String == "79123456781")

            let doors = try await op.run(["doors", "--json"])
            #expect(doors.status == 0, "\(doors)")
            let list = try #require(try JSONSerialization.jsonObject(with: Data(doors.stdout.utf8)) as? [[String: Any]])
            // Every output `open` takes by name, the panel's second door and light too (issue 25).
            #expect(list.map { $0["id"] as? String } == ["entrance", "entrance:alt", "entrance:light", "home:1:0"])
            #expect(list.prefix(3).map { $0["door"] as? String } == ["main", "alt", "light"])
            #expect(list[3]["source"] as? String == "operator")
            #expect(list[3]["operator"] as? String == "home")
            #expect(list[3]["address"] as? String == "Test Street, 1")
            #expect(list[0]["panel"] as? String == "entrance")

            let open = try await op.run(["open", "home:1:0"])
            #expect(open.status == 0, "\(open)")
            #expect(open.stdout.contains("open request accepted by home for home:1:0"))
            let request = try #require(op.server.requests.last)
            #expect(request.path == "/mobile/address/openDoor")

            for output in [login, doors, open] {
                #expect(!output.stdout.contains(Self.token) && !output.stderr.contains(Self.token))
            }

            let logout = try await op.run(["logout"])
            #expect(logout.status == 0)
            let after = String(decoding: FileManager.default.contents(atPath: op.tokenFile) ?? Data(), as: UTF8.self)
            #expect(!after.contains(Self.token))
            #expect(after.contains("device_id"))
        }
    }

    @Test func aRevokedTokenSaysToLogInAgain() async throws {
        let op = try Operator(revoked: true)
        try await withCleanup({ op.server.stop() }) {
            #expect(try await op.run(["login"], stdin: "1001").status == 0)
            let open = try await op.run(["open", "home:1:0"])
            #expect(open.status == 77)
            #expect(open.stderr.contains("no longer accepts this login; run 'intercom login home'"))
            #expect(open.stderr.contains("Не авторизован"))
            let doors = try await op.run(["doors"])
            #expect(doors.status == 77)
            // The panels are still listed.
            #expect(doors.stdout.contains("entrance"))
        }
    }

    @Test func aHugeAnswerFailsCleanly() async throws {
        let op = try Operator(huge: true)
        try await withCleanup({ op.server.stop() }) {
            #expect(try await op.run(["login"], stdin: "1001").status == 0)
            let doors = try await op.run(["doors", "--json"])
            #expect(doors.status == 65, "\(doors)")
            #expect(doors.stderr.contains("larger than 8 MB"))
        }
    }

    @Test func anUnreachableOperatorIs69() async throws {
        let op = try Operator()
        try await withCleanup({}) {
            #expect(try await op.run(["login"], stdin: "1001").status == 0)
            op.server.stop()
            let open = try await op.run(["open", "home:1:0"])
            #expect(open.status == 69, "\(open)")
            #expect(open.stderr.contains("cannot reach operator home"))
        }
    }
}
