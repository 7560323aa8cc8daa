import Foundation
import Testing
import IntercomBase
import IntercomTestSupport
import IntercomPhoneTestSupport

/// contrib/systemd/intercom.service: systemd accepts it, its exposure score stays low, it lets the
/// daemon write every folder it writes, and the daemon really lives within `MemoryDenyWriteExecute=yes`.
@Suite("security: systemd unit", .serialized, .removesTestFolders) struct SystemdUnitTests {
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

    /// The values of `key=` lines, split at spaces, `%h` and `%t` expanded as systemd does for a user unit.
    static func values(_ key: String, in text: String, home: String, runtime: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix(key + "=") }
            .flatMap { $0.dropFirst(key.count + 1).split(separator: " ") }
            .map { $0.replacingOccurrences(of: "%h", with: home).replacingOccurrences(of: "%t", with: runtime) }
    }

    /// Issue 22: the unit could not write the state folder, so every switch was lost at a restart.
    /// The folders come from the code's one list (`XDGDirectories.daemonWrites`), as systemd starts
    /// a user service: HOME and XDG_RUNTIME_DIR set, no XDG_DATA_HOME or XDG_STATE_HOME.
    @Test("ReadWritePaths= and RuntimeDirectory= cover every folder the daemon writes; ExecStartPre makes the ReadWritePaths")
    func unitCoversEveryFolderTheDaemonWrites() throws {
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        let (home, runtime) = ("/home/resident", "/run/user/4242")
        let writable = Self.values("ReadWritePaths", in: text, home: home, runtime: runtime)
        let runtimeDirectories = Self.values("RuntimeDirectory", in: text, home: home, runtime: runtime).map { runtime + "/" + $0 }
        let folders = XDGDirectories(environment: ["HOME": home, "XDG_RUNTIME_DIR": runtime]).daemonWrites
        #expect(folders.count == 3 && Set(folders).count == 3, "\(folders)")
        for folder in folders {
            #expect((writable + runtimeDirectories).contains { folder == $0 || folder.hasPrefix($0 + "/") },
                    "the daemon writes \(folder), which the unit leaves read-only (ReadWritePaths=\(writable))")
        }
        // A ReadWritePaths= folder that does not exist fails the start ("-" would skip it silently,
        // and the switches with it): ExecStartPre makes each one before the sandbox is set up.
        let made = Self.values("ExecStartPre", in: text, home: home, runtime: runtime)
        #expect(made.starts(with: ["+/bin/mkdir", "-p", "-m", "0700"]), "\(made)")
        for path in writable {
            #expect(!path.hasPrefix("-") && made.contains(path), "ExecStartPre does not make \(path): \(made)")
        }
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
        let panel = try await SimulatorProcess.panel(["--http-port", String(httpPort), "--events", "json"], in: directory)
        let daemon = try Subprocess("strace", ["-f", "-qq", "-e", "trace=mmap,mprotect,pkey_mprotect", "-o", trace,
                                               try IntercomBinary.path(), "daemon", "--events", "json", "--config", config.path],
                                    name: "daemon", environment: environment, logDirectory: directory.url)
        try await daemon.waitForOutput(containing: "\"started\"", in: .stdout, timeout: .seconds(30))
        let caller = try await SimulatorProcess.panel(["--http-port", "0", "--call", "sip:door@127.0.0.1:\(sipPort)",
                                                       "--ring-for", "20", "--events", "json"], in: directory)
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
