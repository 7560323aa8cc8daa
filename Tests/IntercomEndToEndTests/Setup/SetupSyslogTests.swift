import Foundation
import IntercomPhoneTestSupport
import IntercomSimulator
import IntercomTestSupport
import Testing

/// `intercom setup --syslog` against a simulated panel: it shows the one setting (`rsyslog_cgi`)
/// that sends the panel's syslog to `[syslog] listen`, changes nothing when not confirmed, sets it
/// with `--yes` and reads it back; a config that hears no panel's syslog is a config error.
@Suite("setup --syslog", .removesTestFolders)
struct SetupSyslogTests {
    @Test("shows rsyslog_cgi's setting, changes nothing unconfirmed, sets it with --yes and then finds it set; no [syslog] exits 65")
    func showsAndSetsOnlyWhenAsked() async throws {
        let dir = try TestDirectory(prefix: "setup-syslog")
        let panel = try await SimulatedPanel.start(options: SimulatedPanelOptions(),
                                                   sip: SimulatedPanelSIPOptions(dataDirectory: try dir.subdirectory("panel").path))
        try await withCleanup({ await panel.stop() }) {
            let section = """
                [panel entrance]
                url = \(panel.http.baseURL)
                user = admin
                password = admin
                """
            let config = try IntercomBinary.writeConfig(section + "\n\n[syslog]\nlisten = udp:127.0.0.1:5514\n", in: dir)
            let needed = "rsyslog_cgi?action=set&Enable=on&Protocol=udp&ServerAddress=127.0.0.1&ServerPort=5514&LogLevel=6"

            let declined = try await IntercomBinary.run(["setup", "--syslog", "--config", config.path], in: dir, stdin: "n")
            #expect(declined.status == 0, "\(declined)")
            #expect(declined.stdout.contains("rsyslog_cgi now Enable=off"), "\(declined.stdout)")
            #expect(declined.stdout.contains(needed) && declined.stdout.contains("not changed"), "\(declined.stdout)")

            let set = try await IntercomBinary.run(["setup", "--syslog", "--yes", "--config", config.path], in: dir)
            #expect(set.status == 0 && set.stdout.contains("set; it sends its syslog to 127.0.0.1:5514"), "\(set)")
            let again = try await IntercomBinary.run(["setup", "--syslog", "--config", config.path], in: dir, stdin: "n")
            #expect(again.status == 0 && again.stdout.contains("already sends its syslog to 127.0.0.1:5514"), "\(again)")

            // A panel elsewhere cannot send to a loopback listener: said, nothing asked of that panel.
            let far = try IntercomBinary.writeConfig("[panel far]\nurl = http://10.255.255.1\n\n[syslog]\nlisten = udp:127.0.0.1:5514\n",
                                                     in: dir, name: "far.ini")
            let unreachable = try await IntercomBinary.run(["setup", "--syslog", "--yes", "--config", far.path], in: dir)
            #expect(unreachable.status == 1 && unreachable.stderr.contains("which the panel cannot reach"), "\(unreachable)")

            let unheard = try IntercomBinary.writeConfig(section + "\n", in: dir, name: "unheard.ini")
            let refused = try await IntercomBinary.run(["setup", "--syslog", "--config", unheard.path], in: dir)
            #expect(refused.status == 65 && refused.stderr.contains("no panel's syslog is heard"), "\(refused)")
        }
    }
}
