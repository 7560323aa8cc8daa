import Foundation
import IntercomCLI
import IntercomPhoneTestSupport
import Testing
import IntercomTestSupport

/// The completion scripts `intercom completion SHELL` makes, loaded in the real shells: commands,
/// options, and the panel names and door ids of the user's config.
@Suite("shell completions", .removesTestFolders)
struct CompletionTests {
    /// PATH with the build under test first, so the scripts' `intercom __complete` runs it.
    static func path() throws -> String {
        "\(try InstalledProgram.built()):/usr/local/bin:/usr/bin:/bin"
    }

    @Test("__complete names the config's panels and door ids; a broken config gives nothing, not an error")
    func dynamicNames() async throws {
        let dir = try TestDirectory(prefix: "completion")
        try InstalledProgram.writeTwoPanelConfig(in: dir)
        let config = dir.file("config.ini").path
        #expect(try await InstalledProgram.output(["__complete", "panels", "--config", config], in: dir) == "porch\ngate\n")
        let doors = try await InstalledProgram.output(["__complete", "doors", "--config", config], in: dir)
        #expect(doors.split(separator: "\n").map(String.init) == ["porch", "gate", "porch:alt", "porch:light", "gate:alt", "gate:light"])
        let broken = try dir.write("[panel]\nurl\n", to: "broken.ini")
        let result = try await IntercomBinary.run(["__complete", "panels", "--config", broken.path], in: dir)
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }

    @Test("bash: the script registers, completes commands, ctl actions, option values and panel names")
    func bash() async throws {
        let dir = try TestDirectory(prefix: "completion")
        try InstalledProgram.writeTwoPanelConfig(in: dir)
        let script = try dir.write(try await InstalledProgram.output(["completion", "bash"], in: dir), to: "intercom.bash")
        let probe = """
            source \(script.path)
            complete -p intercom
            t() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _intercom; echo "$*=${COMPREPLY[*]}"; }
            t intercom wa
            t intercom call ''
            t intercom ctl ''
            t intercom ctl open ''
            t intercom ctl mute ''
            t intercom tui --graphics s
            t intercom --config \(dir.file("config.ini").path) watch p
            """
        let result = try await InstalledProgram.run("bash", ["--norc", "--noprofile", "-c", probe], in: dir,
                                                    environment: ["PATH": try Self.path(), "INTERCOM_CONFIG": dir.file("config.ini").path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "complete -F _intercom intercom")
        for expected in ["intercom wa=watch", "intercom call =porch gate",
                         "intercom ctl =" + CtlCommand.spec.actions.map(\.name).joined(separator: " "),
                         "intercom ctl open =porch gate porch:alt porch:light gate:alt gate:light",
                         "intercom ctl mute =on off", "intercom tui --graphics s=sixel symbols"] {
            #expect(lines.contains(expected), "bash gave:\n\(result.stdout)")
        }
        #expect(lines.last?.hasSuffix(" watch p=porch") == true, "--config before the command: \(result.stdout)")
    }

    @Test("fish: complete -C offers commands with their summaries, panel names and ctl's door ids")
    func fish() async throws {
        let dir = try TestDirectory(prefix: "completion")
        try InstalledProgram.writeTwoPanelConfig(in: dir)
        let script = try dir.write(try await InstalledProgram.output(["completion", "fish"], in: dir), to: "intercom.fish")
        let probe = """
            source \(script.path)
            complete -C 'intercom wa'; echo ==
            complete -C 'intercom call '; echo ==
            complete -C 'intercom ctl open '; echo ==
            complete -C 'intercom ctl --d'
            """
        let result = try await InstalledProgram.run("fish", ["--no-config", "-c", probe], in: dir,
                                                    environment: ["PATH": try Self.path(), "INTERCOM_CONFIG": dir.file("config.ini").path])
        #expect(result.status == 0, "\(result.stderr)")
        let parts = result.stdout.components(separatedBy: "==\n")
        #expect(parts.count == 4, "\(result.stdout)")
        guard parts.count == 4 else { return }
        #expect(parts[0].hasPrefix("watch\tshow a panel's or an operator's camera live"), "\(parts[0])")
        #expect(Set(parts[1].split(separator: "\n")) == ["porch", "gate"], "\(parts[1])")
        #expect(Set(parts[2].split(separator: "\n")) == ["porch", "gate", "porch:alt", "porch:light", "gate:alt", "gate:light"])
        #expect(parts[3].hasPrefix("--door\t"), "\(parts[3])")
    }

    @Test("zsh: the function loads through compinit and Tab completes a panel name in a real shell (tmux)")
    func zsh() async throws {
        let dir = try TestDirectory(prefix: "completion")
        try InstalledProgram.writeTwoPanelConfig(in: dir)
        let functions = try dir.subdirectory("zfunc")
        try await InstalledProgram.output(["completion", "zsh"], in: dir)
            .write(to: functions.appendingPathComponent("_intercom"), atomically: true, encoding: .utf8)
        let load = try await InstalledProgram.run("zsh", ["-fc", """
            fpath=(\(functions.path) $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[intercom]
            """], in: dir)
        #expect(load.status == 0 && load.stdout == "_intercom\n", "\(load)")

        // Through env(1): the session's shell should see exactly this PATH, whatever tmux's server has.
        let tmux = try await Tmux(command: "env PATH=\(try Self.path()) INTERCOM_CONFIG=\(dir.file("config.ini").path) "
                                      + "HOME=\(dir.path) zsh -f", width: 150, height: 20)
        try await withCleanup({ await tmux.kill() }) {
            try await tmux.sendLiteral("fpath=(\(functions.path) $fpath); autoload -U compinit; compinit -u -D; echo ready")
            try await tmux.sendKeys("Enter")
            _ = try await tmux.waitForScreen(containing: "\nready")
            try await tmux.sendLiteral("intercom call po")
            try await tmux.sendKeys("Tab")
            _ = try await tmux.waitForScreen(containing: "intercom call porch")
            try await tmux.sendKeys("C-u")
            try await tmux.sendLiteral("intercom ctl ")
            try await tmux.sendKeys("Tab")
            let actions = try await tmux.waitForScreen(containing: "speaker")
            #expect(actions.contains("hangup") && actions.contains("events"), "\(actions)")
        }
    }
}
