import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport

/// Issue 22 on the terminal client: `intercom tui` makes the state folder 0700 (it used to leave
/// it 0755, which later stopped every switch from being saved), and a switch that cannot be saved
/// is said on its status line.
@Suite("TUI in tmux: switches", .serialized)
struct TUISwitchTmuxTests {
    @Test func theStateFolderIsPrivateAndAnUnsavedSwitchIsOnTheStatusLine() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        try await withStaticPicture {
            let s = try await TUITmuxTests.Session.start(panelNames: ["entrance"], extraConfig: "\n[mqtt]\nurl = \(broker.url)\n")
            try await withCleanup({ await s.stop(); await broker.stop() }) {
                // tui.log went into a state folder made 0700.
                let state = s.dir.path + "/state/intercom"
                var info = stat()
                #expect(lstat(state, &info) == 0 && info.st_mode & 0o777 == 0o700, "mode \(String(info.st_mode & 0o777, radix: 8))")
                #expect(FileManager.default.fileExists(atPath: state + "/tui.log"))

                // Now the folder is a symlink: Home Assistant's do-not-disturb switch cannot be kept.
                #expect(rename(state, s.dir.path + "/state/moved") == 0 && symlink(s.dir.path + "/state/moved", state) == 0)
                let watcher = try await broker.subscribe(["intercom/#"])
                // The topic root names this host: read it from the retained availability message.
                var root: String?
                await TestPatience.eventually {
                    root = watcher.messages.first { $0.topic.hasSuffix("/status") && $0.text == "online" }
                        .map { String($0.topic.dropLast("/status".count)) }
                    return root != nil
                }
                let base = try #require(root, "the TUI never said online on MQTT")
                try await broker.publish(base + "/entrance/dnd/set", "ON")
                _ = try await s.tmux.waitForScreen(containing: "not switched to calls off")
            }
        }
    }
}
