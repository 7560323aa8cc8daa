import Foundation
import IntercomCore
@testable import IntercomSimulator
import Testing
import IntercomTestSupport

/// The real binary draws a simulated panel's picture into a tmux pane.
@Suite("snapshot --show in tmux", .serialized)
struct SnapshotShowTmuxTests {
    @Test func drawsThePictureIntoThePane() async throws {
        let server = SimulatedPanelHTTPServer()
        _ = try server.start()
        defer { server.stop() }
        let dir = try TestDirectory(prefix: "intercom-gfx")
        let config = try dir.write("[panel p]\nurl = \(server.baseURL)\nuser = admin\npassword = admin\n", to: "config.ini")
        chmod(config.path, 0o600)
        let binary = try IntercomBinary.path()
        let tmux = try await Tmux(
            // The test runner may export NO_COLOR, which the picture rightly honours.
            command: "env -u NO_COLOR '\(binary)' snapshot --config '\(config.path)' --show --graphics symbols; echo SHOWN-EXIT=$?",
            width: 100, height: 30, environment: ["TERM": "tmux-256color", "COLORTERM": "truecolor"])
        try await withCleanup({ await tmux.kill() }) {
            let screen = try await tmux.waitForScreen(containing: "SHOWN-EXIT=0", timeout: .seconds(30))
            #expect(!screen.contains("intercom:"), "\(screen)")
            let blocks = screen.unicodeScalars.filter { (0x2580...0x259F).contains($0.value) || (0x2500...0x257F).contains($0.value) }
            #expect(blocks.count > 200, "\(screen)")
            let coloured = try await tmux.capture(escapes: true)
            // tmux re-encodes colours for its own outer terminal: 24-bit or 256-colour, either is colour.
            // Searched as bytes: as Characters, an escape can fuse with its neighbours.
            let bytes = Array(coloured.utf8)
            let sgr = bytes.indices.dropLast(3).filter { bytes[$0] == 0x1B && bytes[$0 + 1] == 0x5B && [0x33, 0x34].contains(bytes[$0 + 2]) && bytes[$0 + 3] == 0x38 }
            #expect(sgr.count > 100, "\(sgr.count) colour sequences")
            #expect(server.requestCount("images_cgi") + server.requestCount("/cgi-bin/images_cgi") >= 1)
        }
    }
}
