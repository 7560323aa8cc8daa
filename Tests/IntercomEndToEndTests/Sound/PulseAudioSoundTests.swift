import Foundation
import IntercomPhoneTestSupport
import Testing
import IntercomBase
import IntercomSimulator
import IntercomPhone
import IntercomTestSupport

/// Call sound through a real PulseAudio server with two null sinks: a panel's call plays on
/// `[audio] playback`, and the speaker toggle moves it to `[audio] speaker` and back mid-call.
@Suite("sound: a real PulseAudio server", .serialized, .removesTestFolders)
struct PulseAudioSoundTests {
    @Test("a panel's call plays on the playback sink (non-silent); ctl speaker on/off moves it between the sinks mid-call")
    func speakerToggleMovesTheCallsSound() async throws {
        let dir = try TestDirectory(prefix: "pulse")
        let pulse = try await PulseAudioServer(in: dir)
        let tone = dir.file("tone.wav")
        try WAVTone.write(to: tone, frequency: 440, seconds: 60)
        let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(
            user: "100001", dataDirectory: try dir.subdirectory("panel").path, audio: .files(play: tone.path, record: nil)))
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0
            [audio]
            playback = \(PulseAudioServer.playbackDevice)
            speaker = \(PulseAudioServer.speakerDevice)
            [panel entrance]
            url = \(panel.http.baseURL)
            user = admin
            password = admin
            match = sip:100001@
            auto_answer = on
            """, name: "pulse", shell: "export PULSE_SERVER=unix:\(pulse.socket); exec \"$0\" \"$@\"")
        try await withCleanup({
            _ = await daemon.stop()
            await panel.stop()
            await pulse.stop()
        }) {
            try await daemon.waitUntilStarted()
            _ = try await panel.ring("sip:resident@127.0.0.1:\(try daemon.port("udp"))")
            try await daemon.waitForEvent("call_answered", timeout: .seconds(15))

            try await pulse.waitUntilPlaying(on: "playback")
            let played = try await pulse.level(of: "playback")
            #expect(played > 0.05, "the call's sound on the playback sink is silent (RMS \(played))\n\(daemon.log)")

            let on = try await daemon.run(["ctl", "speaker", "on"])
            #expect(on.status == 0 && on.stdout.contains(PulseAudioServer.speakerDevice), "\(on)")
            try await pulse.waitUntilPlaying(on: "speaker", timeout: .seconds(5))
            let speaker = try await pulse.level(of: "speaker")
            let quiet = try await pulse.level(of: "playback")
            #expect(speaker > 0.05 && quiet < 0.01, "after speaker on: speaker RMS \(speaker), playback RMS \(quiet)")

            let off = try await daemon.run(["ctl", "speaker", "off"])
            #expect(off.status == 0, "\(off)")
            try await pulse.waitUntilPlaying(on: "playback", timeout: .seconds(5))
            let back = try await pulse.level(of: "playback")
            #expect(back > 0.05, "back on the playback sink, RMS \(back)")
            #expect(daemon.names.contains("call_answered") && !daemon.names.contains("call_ended"),
                    "the call must stay up while its sound moves: \(daemon.names)")
        }
    }
}

extension PulseAudioSoundTests {
    @Test("doctor lists the server's sinks by description with the config line; with no server and no card it says so in one line")
    func doctorListsDevices() async throws {
        let dir = try TestDirectory(prefix: "pulse-doctor")
        let pulse = try await PulseAudioServer(in: dir)
        try await withCleanup({ await pulse.stop() }) {
            let config = try IntercomBinary.writeConfig("[sip]\nlisten = udp:127.0.0.1:0\n", in: dir)
            let binary = try IntercomBinary.path()
            let with = try await InstalledProgram.run(binary, ["doctor", "--config", config.path], in: dir, environment: pulse.environment)
            #expect(with.stdout.contains("intercom_playback (PulseAudio, play): [audio] playback = \(PulseAudioServer.playbackDevice)"),
                    "\(with.stdout)\(with.stderr)")
            #expect(!with.stdout.contains(SoundCheck.noSound))
            let without = try await InstalledProgram.run(binary, ["doctor", "--config", config.path], in: dir,
                                                         environment: ["PULSE_SERVER": "unix:\(dir.path)/no-server"])
            let cards = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []
            let expectLine = !cards.contains { $0.hasPrefix("pcm") }
            #expect(without.stdout.contains(SoundCheck.noSound) == expectLine, "\(without.stdout)")
            #expect(without.stdout.components(separatedBy: "no sound server").count <= 2, "one line only")
        }
    }
}

extension PulseAudioSoundTests {
    @Test("while a panel rings the terminal client, the ringtone plays on [audio] playback (not the server's default sink)")
    func ringtoneOnThePlaybackSink() async throws {
        let dir = try TestDirectory(prefix: "pulse-ring")
        let pulse = try await PulseAudioServer(in: dir)
        let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(
            user: "100001", dataDirectory: try dir.subdirectory("panel").path))
        let port = try FreePort.udpAndTCP()
        let config = try IntercomBinary.writeConfig("""
            [sip]
            listen = udp:127.0.0.1:\(port)
            [audio]
            playback = \(PulseAudioServer.playbackDevice)
            speaker = \(PulseAudioServer.speakerDevice)
            [panel entrance]
            url = \(panel.http.baseURL)
            user = admin
            password = admin
            match = sip:100001@
            """, in: dir)
        var env: [String: String] = ["TERM": "tmux-256color"]
        for (key, value) in try IntercomBinary.environment(in: dir) { if let value { env[key] = value } }
        let command = "env -u INTERCOM_CONFIG PULSE_SERVER=unix:\(pulse.socket) '\(try IntercomBinary.path())' tui "
            + "--config '\(config.path)' --no-bell --no-notify; echo TUI-EXIT=$?; sleep 30"
        let tmux = try await Tmux(command: command, width: 100, height: 30, environment: env)
        try await withCleanup({
            await tmux.kill()
            await panel.stop()
            await pulse.stop()
        }) {
            _ = try await tmux.waitForScreen(containing: "waiting for calls")
            _ = try await panel.ring("sip:intercom@127.0.0.1:\(port)")
            _ = try await tmux.waitForScreen(containing: "ENTRANCE IS CALLING")
            try await pulse.waitUntilPlaying(on: "playback")
            let level = try await pulse.level(of: "playback")
            #expect(level > 0.01, "the ringtone on the playback sink is silent (RMS \(level))")
            // Declined, the ringing stops; the client is ended by the cleanup.
            try await tmux.sendKeys("d")
        }
    }
}
