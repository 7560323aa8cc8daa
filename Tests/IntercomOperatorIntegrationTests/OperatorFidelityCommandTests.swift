import Foundation
import IntercomBase
import IntercomTestSupport
import Testing

/// The `intercom` binary against `intercom simulate-operator` where the real server's PHP was read
/// again: the server's login texts in the config's language, printed as they came on one line with
/// what to do; `settings` with the flat's code ("off" for the server's 00000) and its RFID keys;
/// `cameras` with each entrance of a panel that serves several.
@Suite(.serialized) struct OperatorFidelityCommandTests {
    /// The simulated operator with ARGS and `config`, and a runner of the binary against it (also the
    /// resident's and the entry camera's tests, OperatorResidentCommandTests.swift).
    func withSimulator(_ arguments: [String], config: String, prefix: String,
                               _ body: (SimulatorProcess, ([String], String?) async throws -> (status: Int32, stdout: String, stderr: String))
                                   async throws -> Void) async throws {
        try await SimulatorProcess.withOperator(arguments, prefix: prefix, config: config) { simulator, directory, file in
            try await body(simulator) { arguments, stdin in
                try await IntercomBinary.run(arguments + ["--config", file.path], in: directory, stdin: stdin, timeout: .seconds(30))
            }
        }
    }

    @Test func loginErrorsCarryTheServersTextInItsLanguageOnOneLine() async throws {
        let config = "[operator home]\napi = API\nphone = 79123456781\nlanguage = ru\n\n[operator work]\napi = API\nphone = 79123456781\nlanguage = en\n"
        try await withSimulator(["--no-camera"], config: config, prefix: "intercom-operator-texts") { _, run in
            let russian = try await run(["login", "home", "--sms"], "0000")
            #expect(russian.status == 77, "\(russian)")
            #expect(russian.stderr.contains("wrong confirmation code; run 'intercom login home' to try again")
                    && russian.stderr.contains("(HTTP 403: Пин-код введен неверно)"), "\(russian.stderr)")
            #expect(russian.stderr.split(separator: "\n").count == 1, "\(russian.stderr)")
            let english = try await run(["login", "work", "--sms"], "0000")
            #expect(english.stderr.contains("(HTTP 403: The PIN code was entered incorrectly)"), "\(english.stderr)")
            // Attempts count per phone: the 6th wrong code in a row, in Russian, is still read as "too many".
            for _ in 3...5 { _ = try await run(["login", "home", "--sms"], "0000") }
            let void = try await run(["login", "home", "--sms"], "0000")
            #expect(void.status == 77)
            #expect(void.stderr.contains("too many wrong codes") && void.stderr.contains("Превышено максимальное число попыток ввода"),
                    "\(void.stderr)")
            #expect(void.stderr.split(separator: "\n").count == 1, "\(void.stderr)")
        }
    }

    @Test func settingsShowTheFlatsCodeAndItsKeys() async throws {
        let config = "[operator home]\napi = API\nphone = 79123456781\n"
        try await withSimulator(["--no-camera"], config: config, prefix: "intercom-operator-keys") { _, run in
            #expect(try await run(["login", "--sms"], "1001").status == 0)
            let json = try await run(["settings", "--json"], nil)
            #expect(json.status == 0, "\(json)")
            #expect(json.stdout.contains(#""door_code":"12345""#), "\(json.stdout)")
            #expect(json.stdout.contains(#""keys":[{"rfid":"0000000A1B2C3D","comment":"Ключ 1","last_seen":null}]"#), "\(json.stdout)")
            let text = try await run(["settings"], nil)
            #expect(text.stdout.contains("0000000A1B2C3D (Ключ 1, never seen)"), "\(text.stdout)")
        }
        try await withSimulator(["--no-camera", "--door-code", "00000"], config: config, prefix: "intercom-operator-nocode") { _, run in
            #expect(try await run(["login", "--sms"], "1001").status == 0)
            let json = try await run(["settings", "--json"], nil)
            #expect(json.stdout.contains(#""door_code":"off""#), "\(json.stdout)")
        }
    }

    @Test func camerasListEachEntranceOfASharedPanel() async throws {
        let config = "[operator home]\napi = API\nphone = 79123456781\n"
        try await withSimulator(["--no-camera", "--entrances", "2"], config: config, prefix: "intercom-operator-entrances") { _, run in
            #expect(try await run(["login", "--sms"], "1001").status == 0)
            let cameras = try await run(["cameras", "--json"], nil)
            #expect(cameras.status == 0, "\(cameras)")
            guard case .array(let rows)? = JSONValue.parse(cameras.stdout) else { throw HarnessError("cameras --json: \(cameras)") }
            let entrances = rows.filter { $0["entrance"] != nil }
            #expect(entrances.map { $0["id"]?.stringValue } == ["home:entrance:1", "home:entrance:102"], "\(cameras.stdout)")
            #expect(entrances.last?["url"]?.stringValue?.hasSuffix("/cctv/102") == true)
            #expect(entrances.allSatisfy { $0["panel"] == .string("1") })
        }
        try await withSimulator(["--no-camera"], config: config, prefix: "intercom-operator-entrance") { _, run in
            #expect(try await run(["login", "--sms"], "1001").status == 0)
            // One entrance: its door stands for its camera, nothing more is listed.
            let cameras = try await run(["cameras", "--json"], nil)
            #expect(cameras.status == 0 && !cameras.stdout.contains("home:entrance:"), "\(cameras)")
        }
    }
}
