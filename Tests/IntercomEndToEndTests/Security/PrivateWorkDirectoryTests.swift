import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// `intercom doctor`, `intercom demo` and the simulated panel put a phone's work files (and its
/// mediastreamer plugin folder, whose every libms*.so gets loaded) in a fresh mkdtemp folder, 0700,
/// removed at exit; never in a predictable `/tmp/intercom-doctor-PID` someone else made first.
@Suite("security: private work directories", .removesTestFolders) struct PrivateWorkDirectoryTests {
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// Entries of `directory` starting with `prefix`, with their modes, seen while `running` holds.
    static func watch(_ directory: String, prefix: String, while running: () -> Bool) async throws -> [String: mode_t] {
        var seen: [String: mode_t] = [:]
        while running() {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(prefix) {
                if let mode = mode(directory + "/" + name) { seen[name] = mode }
            }
            try await Task.sleep(for: .milliseconds(3))
        }
        return seen
    }

    @Test("doctor: a trap at every likely /tmp/intercom-doctor-PID stays untouched; its own folder is 0700, unique, removed")
    func doctorUsesPrivateFolder() async throws {
        let directory = try TestDirectory(prefix: "intercom-doctor-tmp")
        let tmp = try directory.subdirectory("tmp").path
        chmod(tmp, 0o1777)
        // The old name was intercom-doctor-<pid>: plant world-writable folders for the next few hundred pids.
        let last = Int((try? String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        let traps = (last + 1...last + 400).map { "\(tmp)/intercom-doctor-\($0)" }
        for trap in traps {
            mkdir(trap, 0o777)
            chmod(trap, 0o777)
        }
        let config = try IntercomBinary.writeConfig("[sip]\nlisten = udp:127.0.0.1:0\n", in: directory)
        var environment = try IntercomBinary.environment(in: directory)
        environment["TMPDIR"] = tmp
        let doctor = try Subprocess(try IntercomBinary.path(), ["doctor", "--config", config.path], name: "doctor",
                                    environment: environment, logDirectory: directory.url)
        let seen = try await Self.watch(tmp, prefix: "intercom-doctor.", while: { doctor.isRunning })
        _ = try await doctor.waitForExit(timeout: .seconds(30))
        #expect(doctor.stdout.contains("can listen on"), "\(doctor.combinedOutput)")
        for trap in traps {
            let inside = (try? FileManager.default.contentsOfDirectory(atPath: trap)) ?? []
            #expect(inside.isEmpty, "doctor wrote into the planted \(trap): \(inside)")
        }
        #expect(seen.count == 1 && seen.values.allSatisfy { $0 == 0o700 }, "private folders seen: \(seen)")
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp).filter { $0.hasPrefix("intercom-doctor.") }
        #expect(left.isEmpty, "doctor left \(left) behind")
    }

    @Test("simulate-panel: its phone's folder is a 0700 mkdtemp folder, removed when it stops")
    func simulatedPanelUsesPrivateFolder() async throws {
        let directory = try TestDirectory(prefix: "intercom-simpanel-tmp")
        let tmp = try directory.subdirectory("tmp").path
        let panel = try await SimulatorProcess.panel([], in: directory, environment: ["TMPDIR": tmp])
        var found: [String] = []
        await TestPatience.eventually(within: .seconds(15)) {
            found = ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix("intercom-simulated-panel.") }
            return !found.isEmpty || !panel.isRunning
        }
        #expect(found.count == 1, "\(found)\n\(panel.log)")
        for name in found { #expect(Self.mode(tmp + "/" + name) == 0o700, "\(name)") }
        await panel.stop()
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix("intercom-simulated-panel.") }
        #expect(left.isEmpty, "left behind: \(left)\n\(panel.log)")
    }
}
