import Foundation
import IntercomBase
@testable import IntercomSimulator
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// Issue 38's kiosk, end to end (the real binaries, tmux): a kiosk attached to the daemon, a
/// simulated panel rings and gives up; within 3 s the kiosk counts the missed call, and `l` opens
/// the journal over the tiles with it first, saying how long it rang.
@Suite("kiosk: a missed call never vanishes", .serialized, .removesTestFolders) struct KioskMissedCallTmuxTests {
    @Test func aMissedCallIsCountedAndTheJournalOpensOverTheTiles() async throws {
        try await withStaticPicture {
            let dir = try TestDirectory(prefix: "intercom-kiosk-missed")
            let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(
                user: "100001", dataDirectory: try dir.subdirectory("panel").path))
            let port = try FreePort.udpAndTCP()
            let daemon = try DaemonProcess(config: DaemonProcess.simulatedPanelConfig(
                httpPort: panel.http.port, listen: "udp:127.0.0.1:\(port)"), name: "kiosk-missed")
            var kiosk: Tmux?
            try await withCleanup({
                await kiosk?.kill()
                _ = await daemon.stop()
                await panel.stop()
            }) {
                try await daemon.waitUntilStarted()
                var env: [String: String] = ["TERM": "tmux-256color", "COLORTERM": "truecolor"]
                for (key, value) in try IntercomBinary.environment(in: daemon.directory) { if let value { env[key] = value } }
                let screen = try await Tmux(command: "env -u NO_COLOR -u INTERCOM_CONFIG '\(try IntercomBinary.path())' tui --kiosk"
                    + " --config '\(daemon.configURL.path)' --no-bell --no-notify --no-ring; echo TUI-EXIT=$?; sleep 30",
                    width: 120, height: 40, environment: env)
                kiosk = screen
                let tiles = try await screen.waitForScreen(containing: "1. entrance")
                #expect(tiles.contains("attached to the daemon, pid \(daemon.process.pid)"), "\(tiles)")

                _ = try await panel.ring("sip:intercom@127.0.0.1:\(port)")
                _ = try await screen.waitForScreen(containing: "RINGING")
                try await Task.sleep(for: .seconds(2))
                await panel.hangup()
                let ended = ContinuousClock.now
                let counted = try await screen.waitForScreen(containing: "1 missed call: l", timeout: .seconds(3))
                let seconds = (ContinuousClock.now - ended) / .seconds(1)
                print("kiosk: the missed call counted \(String(format: "%.2f", seconds)) s after the panel gave up")
                #expect(counted.contains("entrance: missed (rang 0:0"), "the end says how long it rang: \(counted)")

                try await screen.sendKeys("l")
                let journal = try await screen.waitForScreen(containing: "Journal: 1 missed call first")
                let first = journal.split(separator: "\n").drop { !$0.contains("Journal: 1 missed call first") }.dropFirst().first
                #expect(first.map { $0.contains("entrance") && $0.contains("missed, rang 0:0") } == true, "\(journal)")
                #expect(!journal.contains("1. entrance"), "the journal covers the tiles: \(journal)")
                #expect(journal.contains("l/q/Esc close"), "\(journal)")
                try await screen.sendKeys("l")
                _ = try await screen.waitForScreen(containing: "1. entrance")
            }
        }
    }
}
