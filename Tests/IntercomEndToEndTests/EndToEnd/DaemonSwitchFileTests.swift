import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Issue 37: the daemon does not start on saved switches it cannot trust (a guest mode switched
/// off would otherwise come back from the config): exit 78 and one line saying what to do.
@Suite("intercom daemon: an untrusted switches.json", .removesTestFolders) struct DaemonSwitchFileTests {
    @Test("a damaged switches.json: exit 78, one line naming it, nothing started; doctor names it")
    func damagedSwitchesStopTheDaemon() async throws {
        let dir = try TestDirectory(prefix: "intercom-e2e-switches")
        let config = try IntercomBinary.writeConfig("""
            [sip]
            listen = udp:127.0.0.1:0
            [daemon]
            socket = \(dir.path)/control.sock
            [panel entrance]
            url = http://127.0.0.1:9
            guest_until = 2099-01-01T00:00:00Z
            """, in: dir)
        let state = try dir.subdirectory("state/intercom")
        #expect(chmod(state.path, 0o700) == 0)
        let switches = try dir.write(#"{"entrance": {"guest_until": null, "guest_until_con"#, to: "state/intercom/switches.json")
        #expect(chmod(switches.path, 0o600) == 0)
        let r = try await IntercomBinary.run(["daemon", "--config", config.path], in: dir)
        #expect(r.status == 78, "stdout: \(r.stdout)\nstderr: \(r.stderr)")
        let lines = DaemonBadInputTests.lines(r.stderr)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("\(switches.path) is damaged") == true && lines.first?.contains("remove it") == true, "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/control.sock"), "the control socket was opened")
        #expect(dir.read("state/intercom/switches.json").hasSuffix("guest_until_con"), "the file was written over")
        // doctor names it too, and why it matters.
        let doctor = try await IntercomBinary.run(["doctor", "--config", config.path], in: dir)
        #expect(doctor.status != 0 && doctor.stdout.contains("\(switches.path) is damaged")
                && doctor.stdout.contains("do not start (exit 78)"), "\(doctor)")
    }
}
