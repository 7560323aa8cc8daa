import Foundation
import IntercomPhoneTestSupport
import Testing
import IntercomPhone

/// The one line for a machine where calls cannot be heard, and how doctor names a device.
@Suite("sound check", .removesTestFolders)
struct SoundCheckTests {
    static let pulse = AudioDevice(id: "PulseAudio Unknown: Speakers", name: "Speakers", driver: "PulseAudio", canPlay: true, canRecord: false)
    static let alsa = AudioDevice(id: "ALSA Unknown: default", name: "default", driver: "ALSA", canPlay: true, canRecord: true)

    @Test("no PulseAudio device and no /dev/snd card: one line; a server or a card: none")
    func problem() throws {
        let empty = try TemporaryFolder()
        #expect(SoundCheck.problem([Self.alsa], soundCardFolder: empty.path) == SoundCheck.noSound)
        #expect(SoundCheck.problem([], soundCardFolder: empty.path + "/missing") == SoundCheck.noSound)
        #expect(SoundCheck.problem([Self.alsa, Self.pulse], soundCardFolder: empty.path) == nil)
        #expect(FileManager.default.createFile(atPath: empty.path + "/pcmC0D0p", contents: nil))
        #expect(SoundCheck.problem([Self.alsa], soundCardFolder: empty.path) == nil)
    }

    @Test("doctor shows the description, the driver and the config line that picks the device")
    func describe() {
        #expect(SoundCheck.describe(Self.pulse) == "Speakers (PulseAudio, play): [audio] playback = PulseAudio Unknown: Speakers")
    }

    /// A mkdtemp folder removed when the test's value goes away.
    final class TemporaryFolder {
        let path: String
        init() throws {
            var template = Array((NSTemporaryDirectory() + "/soundcheck.XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
            path = String(cString: made)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }
}
