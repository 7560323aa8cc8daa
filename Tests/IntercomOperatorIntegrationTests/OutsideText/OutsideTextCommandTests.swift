import Foundation
import Testing
import IntercomTestSupport

/// The real commands against hostile servers on loopback: a fake panel whose `DeviceModel` and
/// `SoftwareVersion` carry escape sequences, C1 and invalid UTF-8 (`intercom setup --scan`), and a
/// fake operator whose subscriber name, addresses, door names, camera names, event log and error
/// texts do (`login`, `doors`, `cameras`, `open`, `log`). Every byte each command writes to stdout and stderr is read
/// raw and checked (`HostileText.problem`): no control byte reaches the terminal.
@Suite("security: outside text, commands", .serialized)
struct OutsideTextCommandTests {
    static let token = "5d1c7e2a-0b3f-4a6e-9c8d-7e6f5a4b3c2d"
    static var hostile: [UInt8] { HostileText.all }
    /// JSON must be UTF-8 (the operator client refuses anything else): every sample but that one.
    static var hostileUTF8: [UInt8] {
        HostileText.samples.filter { String(validating: $0.bytes, as: UTF8.self) != nil }.flatMap { $0.bytes + [0x20] }
    }

    /// Runs the binary with `stdin`, stdout and stderr going to files, read back as bytes.
    static func run(_ arguments: [String], stdin: String = "", in directory: TestDirectory)
        async throws -> (status: Int32, stdout: [UInt8], stderr: [UInt8]) {
        let out = directory.file("out-\(UUID().uuidString)").path, err = out + ".err"
        let script = #"out=$1 err=$2 input=$3; shift 3; printf '%s' "$input" | "$@" >"$out" 2>"$err""#
        let result = try await Subprocess.run("/bin/bash", ["-c", script, "bash", out, err, stdin, try IntercomBinary.path()] + arguments,
                                              environment: try IntercomBinary.environment(in: directory),
                                              logDirectory: directory.url, timeout: .seconds(30))
        let read = { (path: String) in [UInt8](FileManager.default.contents(atPath: path) ?? Data()) }
        return (result.status, read(out), read(err))
    }

    static func expectSafe(_ result: (status: Int32, stdout: [UInt8], stderr: [UInt8]), _ what: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, bytes) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let problem = HostileText.problem(bytes)
            #expect(problem == nil, "\(what) \(stream): \(problem ?? "") in \(String(decoding: bytes, as: UTF8.self).debugDescription)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test("setup --scan shows a hostile panel's DeviceModel and SoftwareVersion escaped")
    func setupScanTable() async throws {
        let body = Data(Array("DeviceModel=DKS\u{1B}]0;pwned\u{07}".utf8) + Self.hostile + Array("\nSoftwareVersion=1.2\u{9B}2J".utf8)
                        + Self.hostile + Array("\nUpTime=1\n".utf8))
        let panel = try OperatorStubServer { request in
            request.path.contains("systeminfo_cgi") ? .init(status: 200, body: body) : .error(404, "no")
        }
        try await withCleanup({ panel.stop() }) {
            let directory = try TestDirectory(prefix: "intercom-outside-setup")
            let result = try await Self.run(["setup", "--scan", "127.0.0.1:\(panel.port)", "--dry-run", "--listen", "udp:127.0.0.1:0",
                                             "--config", directory.file("config.ini").path],
                                            stdin: "porch\nadmin\nsecret\n100001\n", in: directory)
            let stdout = String(decoding: result.stdout, as: UTF8.self)
            #expect(result.status == 0, "\(result.status) \(stdout) \(String(decoding: result.stderr, as: UTF8.self))")
            #expect(stdout.contains("(DKS\\u{1B}]0;pwned\\u{07}"), "the scan table names the model, escaped: \(stdout)")
            #expect(stdout.contains("ok: DKS\\u{1B}]0;pwned\\u{07}") && stdout.contains("firmware 1.2\\u{9B}2J"), "\(stdout)")
            Self.expectSafe(result, "setup")
        }
    }

    /// `template` with each `@@` replaced by the hostile text as a JSON string literal.
    static func reply(_ template: String, _ hostile: [UInt8], status: Int = 200) -> OperatorStubServer.Reply {
        let text = HostileText.jsonString(hostile)
        let parts = template.components(separatedBy: "@@").map { Array($0.utf8) }
        return .init(status: status, body: Data(parts.joined(separator: text)))
    }

    /// `reply` inside the SmartYard envelope.
    static func data(_ template: String, _ hostile: [UInt8]) -> OperatorStubServer.Reply {
        reply(#"{"code":200,"name":"OK","message":"OK","data":"# + template + "}", hostile)
    }

    /// A SmartYard stand-in whose every text is hostile.
    static func hostileOperator(_ text: [UInt8]) throws -> OperatorStubServer {
        try OperatorStubServer { request in
            switch request.path {
            case "/mobile/user/requestCode": return .ok(#"{"method":"sms"}"#)
            case "/mobile/user/confirmCode": return data(#"{"accessToken":"\#(token)","names":{"name":@@,"last":@@}}"#, text)
            default: break
            }
            guard request.headers["authorization"] == "Bearer \(token)" else { return .error(401, "no") }
            switch request.path {
            case "/mobile/address/getAddressList":
                return data(#"[{"houseId":"1","address":@@,"hasPlog":"t","doors":[{"domophoneId":"1","doorId":0,"name":@@}],"cctv":1}]"#, text)
            case "/mobile/address/getSettingsList":
                return data(#"[{"flatId":"7","flatNumber":"12","houseId":"1","address":@@,"flatOwner":"t","hasPlog":"t"}]"#, text)
            case "/mobile/cctv/all":
                return data(#"[{"id":7,"name":@@,"url":"https://cam.example/7","token":"t","serverType":"flussonic"}]"#, text)
            case "/mobile/address/plogDays": return .ok(#"[{"day":"2026-12-01","events":1}]"#)
            case "/mobile/address/plog":
                return data(#"[{"date":"2026-12-01 10:13:59","uuid":"a1","mechanizmaDescription":@@,"event":"4","detailX":{}}]"#, text)
            case "/mobile/address/openDoor": return reply(#"{"code":403,"name":@@,"message":@@}"#, text, status: 403)
            default: return .error(404, "Not found")
            }
        }
    }

    @Test("login, doors, open and log print a hostile operator's texts escaped")
    func operatorCommands() async throws {
        let server = try Self.hostileOperator(Self.hostileUTF8)
        let broken = try Self.hostileOperator(Self.hostile)
        try await withCleanup({ server.stop(); broken.stop() }) {
            let directory = try TestDirectory(prefix: "intercom-outside-operator")
            let config = try IntercomBinary.writeConfig("[operator home]\napi = \(server.baseURL)\nphone = 79123456781\n", in: directory)
            let login = try await Self.run(["login", "home", "--config", config.path], stdin: "1001\n", in: directory)
            let said = String(decoding: login.stdout, as: UTF8.self)
            #expect(login.status == 0 && said.contains("logged in to home as a\\u{1B}[2J"), "\(said) \(String(decoding: login.stderr, as: UTF8.self))")
            Self.expectSafe(login, "login")
            for command in [["doors"], ["doors", "--json"], ["open", "home:1:0"], ["log"], ["log", "--json"], ["cameras"]] {
                let result = try await Self.run(command + ["--config", config.path], in: directory)
                let said = String(decoding: result.stdout + result.stderr, as: UTF8.self)
                #expect(said.contains("a\\u{1B}[2J") || said.contains("a\\u001b[2J"), "\(command) did not show the text: \(said)")
                Self.expectSafe(result, command.joined(separator: " "))
            }
            // An answer that is not UTF-8 is refused whole, in a clean line.
            let other = try IntercomBinary.writeConfig("[operator home]\napi = \(broken.baseURL)\nphone = 79123456781\n",
                                                       in: directory, name: "broken.ini")
            let refused = try await Self.run(["login", "home", "--config", other.path], stdin: "1001\n", in: directory)
            #expect(refused.status == 65 && String(decoding: refused.stderr, as: UTF8.self).contains("not JSON"),
                    "\(String(decoding: refused.stderr, as: UTF8.self))")
            Self.expectSafe(refused, "login with an answer that is not UTF-8")
        }
    }
}
