import Foundation
import IntercomTestSupport
import Testing

/// `intercom snapshot OPERATOR:cam:ID` as a user runs it: the operator (a stub answering like a
/// SmartYard server) names a Flussonic-shaped camera, served by an HLS folder over HTTP.
@Suite(.serialized) struct OperatorCameraCommandTests {
    static let token = "3b8e4c1a-9f2d-4e5b-8c7a-0d1e2f3a4b5c"

    func withOperator(cameraURL: String, serverType: String = "flussonic",
                      _ body: (_ run: @Sendable ([String]) async throws -> (status: Int32, stdout: String, stderr: String),
                               _ directory: TestDirectory, _ config: URL) async throws -> Void) async throws {
        let token = Self.token
        let server = try OperatorStubServer { request in
            switch request.path {
            case "/mobile/user/requestCode": return .ok(#"{"method":"sms"}"#)
            case "/mobile/user/confirmCode": return .ok(#"{"accessToken":"\#(token)","names":{"name":"Ivan"}}"#)
            default: break
            }
            guard request.headers["authorization"] == "Bearer \(token)" else { return .error(401, "Не авторизован") }
            switch request.path {
            case "/mobile/address/getAddressList":
                return .ok(#"[{"houseId":"1","address":"Test Street, 1","doors":[],"cctv":1}]"#)
            case "/mobile/cctv/all":
                return .ok(#"[{"id":7,"name":"Gate","url":"\#(cameraURL)","token":"test-token","serverType":"\#(serverType)","hasSound":false}]"#)
            default: return .error(404, "Not found")
            }
        }
        let directory = try TestDirectory(prefix: "intercom-operator-camera")
        let config = try IntercomBinary.writeConfig("""
            [operator home]
            api = \(server.baseURL)
            phone = 8 912 345-67-81
            """, in: directory)
        let run: @Sendable ([String]) async throws -> (status: Int32, stdout: String, stderr: String) = { arguments in
            try await Subprocess.run("/bin/bash", ["-c", "echo 1001 | \"$0\" \"$@\"", try IntercomBinary.path()]
                                        + arguments + ["--config", config.path],
                                     environment: try IntercomBinary.environment(in: directory),
                                     logDirectory: directory.url, timeout: .seconds(30))
        }
        try await withCleanup({ server.stop() }) {
            let login = try await run(["login", "home"])
            #expect(login.status == 0, "\(login)")
            try await body(run, directory, config)
        }
    }

    @Test func aPreviewIsSavedAsJPEG() async throws {
        let folder = try await HLSTestFolder.start()
        try await withCleanup({ await folder.stop() }) {
            try await withOperator(cameraURL: "http://127.0.0.1:\(folder.port)/cam1") { run, directory, _ in
                let file = directory.path + "/gate.jpg"
                let saved = try await run(["snapshot", "home:cam:7", "-o", file])
                #expect(saved.status == 0, "\(saved)")
                #expect(saved.stdout.contains("saved \(file) (320×240") || saved.stdout.contains("saved \(file) (320x240"),
                        "\(saved)")
                let jpeg = try Data(contentsOf: URL(fileURLWithPath: file))
                #expect(jpeg.starts(with: [0xFF, 0xD8]))
                #expect(!(saved.stdout + saved.stderr).contains("test-token"), "the camera token is never printed")

                let unknown = try await run(["snapshot", "home:cam:99", "-o", file])
                #expect(unknown.status == 64, "\(unknown)")
                #expect(unknown.stderr.contains("operator home has no camera 99; see 'intercom cameras'"), "\(unknown)")

                let future = try await run(["snapshot", "home:cam:7", "--at", "2999-01-01 10:00"])
                #expect(future.status == 64 && future.stderr.contains("is in the future"), "\(future)")
            }
        }
    }

    @Test func anotherVideoServerIsOneClearLine() async throws {
        try await withOperator(cameraURL: "http://127.0.0.1:9/cam1", serverType: "nimble") { run, _, _ in
            let refused = try await run(["snapshot", "home:cam:7", "-o", "/dev/null"])
            #expect(refused.status == 69, "\(refused)")
            #expect(refused.stderr.contains("camera 7 is on a Nimble server; live and export need Flussonic for now"), "\(refused)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        }
    }

    /// `watch home:cam:7` in tmux plays the camera's HLS; `--at` plays its recording from then and
    /// says when it ended; an unknown camera is one line before any screen.
    @Test func watchPlaysTheCameraAndItsRecording() async throws {
        let folder = try await HLSTestFolder.start()
        try await withCleanup({ await folder.stop() }) {
            // 2026-11-30T10:00:00Z
            try folder.addArchive(from: 1_796_032_800, seconds: 3600)
            try await withOperator(cameraURL: "http://127.0.0.1:\(folder.port)/cam1") { run, directory, config in
                let unknown = try await run(["watch", "home:cam:99"])
                #expect(unknown.status == 64 && unknown.stderr.contains("operator home has no camera 99"), "\(unknown)")

                let live = try await WatchScreen.start("home:cam:7", config: config, in: directory)
                try await withCleanup({ await live.kill() }) {
                    try await live.waitFor("home:cam:7 · symbols · live")
                    try await live.quit()
                }
                let archive = try await WatchScreen.start("home:cam:7", config: config, in: directory,
                                                          extra: "--at 2026-11-30T10:00:00Z")
                try await withCleanup({ await archive.kill() }) {
                    try await archive.waitFor("home:cam:7 · symbols · live")
                    try await archive.waitFor("the recording ended")
                    #expect(!(try await archive.tmux.capture()).contains("test-token"))
                    try await archive.quit()
                }
            }
        }
    }

    /// `watch OPERATOR:cam:ID` beside this user's daemon attaches to it: the daemon asks the operator
    /// and plays the camera, the screen says it is attached and shows the live picture.
    @Test func watchAttachedPlaysTheCameraThroughTheDaemon() async throws {
        let folder = try await HLSTestFolder.start()
        try await withCleanup({ await folder.stop() }) {
            try await withOperator(cameraURL: "http://127.0.0.1:\(folder.port)/cam1") { run, directory, config in
                let text = try String(contentsOf: config, encoding: .utf8) + "\n[sip]\nlisten = udp:127.0.0.1:0\n"
                try text.write(to: config, atomically: true, encoding: .utf8)
                let daemon = try Subprocess(try IntercomBinary.path(), ["daemon", "--config", config.path], name: "intercom-daemon",
                                            environment: try IntercomBinary.environment(in: directory), logDirectory: directory.url)
                try await withCleanup({ await daemon.stop() }) {
                    guard try await TestPatience.eventually(within: .seconds(15), every: .milliseconds(100), {
                        try await run(["ctl", "status"]).status == 0
                    }) else { throw HarnessError("the daemon's control socket never answered") }
                    let watch = try await WatchScreen.start("home:cam:7", config: config, in: directory)
                    try await withCleanup({ await watch.kill() }) {
                        try await watch.waitFor("home:cam:7 · attached, pid \(daemon.pid) · symbols · live")
                        try await watch.quit()
                    }
                }
            }
        }
    }
}
