import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator
import IntercomPhoneTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `intercom simulate-operator` binary: its lines, its own simulated panel, its signals
/// and its exit codes.
@Suite(.serialized, .removesTestFolders) struct OperatorSimulatorCommandTests {
    /// Starts the binary and returns it with the base URL it printed.
    private func start(_ arguments: [String], in dir: TestDirectory) async throws -> (SimulatorProcess, String) {
        // Ready once it names its own panel, the last of its banner lines.
        let process = try await SimulatorProcess.start("simulate-operator", arguments, in: dir, ready: ["panel "])
        return (process, try process.operatorURL())
    }

    private func post(_ base: String, _ method: String, _ body: String, token: String? = nil,
                      in dir: TestDirectory) async throws -> (status: String, body: String) {
        var arguments = ["-s", "--max-time", "20", "-w", "\n%{http_code}", "-X", "POST", "--data-binary", body]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        let result = try await Subprocess.run("curl", arguments + ["\(base)/\(method)"], logDirectory: dir.url, timeout: .seconds(30))
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    @Test func printsItsURLAndTestPhoneOpensItsOwnPanelAndRevokesOnSIGUSR1() async throws {
        let dir = try TestDirectory(prefix: "simulate-operator")
        let (process, base) = try await start(["--phone", "89005550101", "--time-zone", "UTC", "--php-time-zone", "Europe/Moscow",
                                               "--confirm-method", "sms"], in: dir)
        try await withCleanup({ await process.stop(grace: .seconds(10)) }) {
            #expect(base.hasPrefix("http://127.0.0.1:") && base.hasSuffix("/mobile"), "stdout:\n\(process.stdout)")
            #expect(process.stdout.contains("test phone 79005550101, code 1001"), "stdout:\n\(process.stdout)")
            #expect(!process.stdout.contains("password"))

            // --confirm-method sms: a request naming no method gets the PIN.
            _ = try await post(base, "user/requestCode", #"{"userPhone":"79005550101"}"#, in: dir)
            let confirmed = try await post(base, "user/confirmCode",
                #"{"userPhone":"79005550101","smsCode":"1001","deviceToken":"cli"}"#, in: dir)
            let token = try #require(JSONValue.parse(confirmed.body)?["data"]?["accessToken"]?.stringValue, "\(confirmed)")
            let opened = try await post(base, "address/openDoor", #"{"domophoneId":"1","doorId":0}"#, token: token, in: dir)
            #expect(opened.status == "204")
            #expect(opened.body.isEmpty)
            // Its own simulated panel received the door request.
            try await process.waitForOutput(containing: "door opened: main (http)", in: .stdout)

            process.signal(SIGUSR1)
            try await process.waitForOutput(containing: "tokens revoked", in: .stdout)
            #expect(try await post(base, "user/ping", "{}", token: token, in: dir).status == "401")

            await process.stop(grace: .seconds(10))
            #expect(process.exitStatus == 0, "not 0 (nor a signal's number): \(process.log)")
            #expect(process.stdout.contains("stopped"))
        }
    }

    @Test func badOptionsAreUsageErrors() async throws {
        let dir = try TestDirectory(prefix: "simulate-operator")
        for arguments in [["--listen", "localhost"], ["--phone", "123"], ["--time-zone", "Mars/Olympus"], ["--php-time-zone", "Moon"],
                          ["--panel", "ftp://x"], ["--fault", "loud"], ["--fault-on", "address/openDoor"]] {
            let result = try await Subprocess.run(try SimulatePanelCommandTests.binary(), ["simulate-operator"] + arguments,
                                                  logDirectory: dir.url)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
    }

    @Test func takenPortIsUnavailable() async throws {
        let taken = try SimulatedOperator.start()
        defer { taken.stop() }
        let dir = try TestDirectory(prefix: "simulate-operator")
        let result = try await Subprocess.run(try SimulatePanelCommandTests.binary(),
                                              ["simulate-operator", "--listen", "127.0.0.1:\(taken.port)"], logDirectory: dir.url)
        #expect(result.status == 69, "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
    }

    /// GStreamer with no plugins to find (an empty plugin path and a registry of its own): the
    /// cameras cannot start, which is one line naming the package and --no-camera, which starts.
    @Test func missingGStreamerPluginsAreOneLineAndNoCameraRunsWithout() async throws {
        let dir = try TestDirectory(prefix: "simulate-operator")
        let plugins = dir.file("no-plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let bare: [String: String?] = ["GST_PLUGIN_SYSTEM_PATH_1_0": plugins.path, "GST_PLUGIN_PATH_1_0": nil,
                                       "GST_PLUGIN_PATH": nil, "GST_REGISTRY_1_0": dir.file("registry.bin").path]
        let refused = try await Subprocess.run(try SimulatePanelCommandTests.binary(), ["simulate-operator"],
                                               environment: bare, logDirectory: dir.url)
        #expect(refused.status == 69, "stderr: \(refused.stderr)")
        #expect(refused.stderr.contains("cameras cannot start: GStreamer's appsrc is missing (Debian: gstreamer1.0-plugins-base")
                && refused.stderr.contains("pass --no-camera"), "stderr: \(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "stderr: \(refused.stderr)")

        let process = try await SimulatorProcess.start("simulate-operator", ["--no-camera"], in: dir, environment: bare,
                                                       ready: ["panel "])
        await process.stop(grace: .seconds(10))
        #expect(process.exitStatus == 0, "\(process.log)")
    }
}
