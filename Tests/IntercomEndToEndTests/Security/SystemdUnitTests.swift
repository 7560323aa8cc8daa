import Foundation
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// contrib/systemd/intercom.service: systemd accepts it, its exposure score stays low, and the
/// daemon really lives within `MemoryDenyWriteExecute=yes`.
@Suite("security: systemd unit", .serialized) struct SystemdUnitTests {
    static let unit = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("contrib/systemd/intercom.service")

    /// The unit as installed, with ExecStart pointing at the binary under test (verify checks it exists).
    static func installedCopy(in directory: TestDirectory) throws -> URL {
        let text = try String(contentsOf: unit, encoding: .utf8)
        #expect(text.contains("ExecStart=%h/.local/bin/intercom daemon"), "the unit's ExecStart changed; update this test")
        return try directory.write(text.replacingOccurrences(of: "%h/.local/bin/intercom", with: try IntercomBinary.path()),
                                   to: "intercom.service")
    }

    @Test("systemd-analyze verify accepts the unit, and security rates it 4.5 or better")
    func unitVerifiesAndIsHardened() async throws {
        let directory = try TestDirectory(prefix: "intercom-unit")
        let copy = try Self.installedCopy(in: directory)
        let verify = try await Subprocess.run("systemd-analyze", ["verify", copy.path], logDirectory: directory.url)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify)")
        let security = try await Subprocess.run("systemd-analyze", ["--offline=true", "security", copy.path],
                                                logDirectory: directory.url)
        let line = security.stdout.split(separator: "\n").last { $0.contains("Overall exposure level") } ?? ""
        let score = line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(score.map { $0 <= 4.5 } == true, "exposure: \(line)\n\(security.stderr)")
        print("systemd-analyze security: \(line)")
    }

    /// MemoryDenyWriteExecute=yes makes mmap(PROT_WRITE|PROT_EXEC) and mprotect(PROT_EXEC) fail; a
    /// library that needs either would break calls only under systemd. strace watches for them
    /// through a start, a panel call with H.264 video, the peephole and a door opened over HTTP.
    @Test("through a video call the daemon never maps writable+executable memory")
    func noWritableExecutableMemory() async throws {
        let directory = try TestDirectory(prefix: "intercom-mdwe")
        let httpPort = try FreePort.udpAndTCP()
        let sipPort = try FreePort.udpAndTCP()
        let config = try IntercomBinary.writeConfig("""
            [sip]
            listen = udp:127.0.0.1:\(sipPort)

            [panel sim]
            url = http://127.0.0.1:\(httpPort)
            match = sip:100001@
            auto_answer = 1
            open = both
            """, in: directory)
        let trace = directory.file("strace.txt").path
        let environment = try IntercomBinary.environment(in: directory)
        let panel = try Subprocess(try IntercomBinary.path(),
                                   ["simulate-panel", "--http-port", String(httpPort), "--events", "json"],
                                   name: "panel", environment: environment, logDirectory: directory.url)
        try await panel.waitForOutput(containing: "http_listening", in: .stdout)
        let daemon = try Subprocess("strace", ["-f", "-qq", "-e", "trace=mmap,mprotect,pkey_mprotect", "-o", trace,
                                               try IntercomBinary.path(), "daemon", "--events", "json", "--config", config.path],
                                    name: "daemon", environment: environment, logDirectory: directory.url)
        try await daemon.waitForOutput(containing: "\"started\"", in: .stdout, timeout: .seconds(30))
        let caller = try Subprocess(try IntercomBinary.path(),
                                    ["simulate-panel", "--http-port", "0", "--call", "sip:door@127.0.0.1:\(sipPort)",
                                     "--ring-for", "20", "--events", "json"],
                                    name: "caller", environment: environment, logDirectory: directory.url)
        try await daemon.waitForOutput(containing: "\"call_answered\"", in: .stdout, timeout: .seconds(30))
        try await Task.sleep(for: .seconds(2))
        let open = try await IntercomBinary.run(["ctl", "open", "--config", config.path], in: directory)
        #expect(open.status == 0, "\(open)")
        try await Task.sleep(for: .seconds(1))
        await caller.stop()
        await daemon.stop()
        await panel.stop()
        #expect(caller.stdout.contains("H264"), "the call carried no H.264: \(caller.stdout)")

        let lines = (try? String(contentsOfFile: trace, encoding: .utf8))?.split(separator: "\n") ?? []
        #expect(lines.count > 100, "strace saw almost nothing: \(lines.count) lines")
        let offending = lines.filter { line in
            line.contains("PROT_EXEC") && (line.contains("mprotect(") || line.contains("PROT_WRITE"))
        }
        #expect(offending.isEmpty, "MemoryDenyWriteExecute would refuse:\n\(offending.prefix(10).joined(separator: "\n"))")
    }
}
