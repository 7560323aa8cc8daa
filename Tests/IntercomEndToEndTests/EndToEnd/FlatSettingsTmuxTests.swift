import Foundation
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// `F` and `W` on the terminal client, in tmux against `intercom simulate-operator` over HTTP on
/// loopback: `F` shows the flat's settings on the message line, `W` moves white_rabbit to the next
/// minutes through the settings command, and `intercom settings`, asking the operator, shows it.
/// The keys and the line are tested fast in FlatSettingsKeysTests.
@Suite(.removesTestFolders) struct FlatSettingsTmuxTests {
    @Test func fShowsTheFlatsSettingsAndWChangesTheMinutes() async throws {
        try await OperatorScreen.run(simulator: ["--no-camera"], prefix: "intercom-e2e-flat-settings") { tmux, config, directory in
            try await tmux.waitForScreen(containing: "waiting for calls", timeout: .seconds(20))
            // The operator's doors (which name it logged in) come with the engine's first refresh.
            var shown = ""
            guard try await TestPatience.eventually(within: .seconds(20), every: .seconds(1), {
                try await tmux.sendKeys("F")
                shown = try await tmux.capture()
                return shown.contains("home, flat 1: cms on")
            }) else { throw HarnessError("F never showed the flat's settings:\n\(shown)") }
            #expect(shown.contains("white_rabbit off"), "\(shown)")

            try await tmux.sendKeys("W")
            let stepped = try await tmux.waitForScreen(containing: "white_rabbit 1 min", timeout: .seconds(10))
            #expect(stepped.contains("home, flat 1:"), "\(stepped)")
            let asked = try await IntercomBinary.run(["settings", "home", "--config", config.path], in: directory)
            #expect(asked.stdout.contains("white_rabbit  1 min"), "\(asked)")

            try await tmux.sendKeys("q")
            let ended = try await tmux.waitForScreen(containing: "exit=", timeout: .seconds(15))
            #expect(ended.contains("exit=0"), "\(ended)")
        }
    }
}
