import Foundation

/// Whether call sound can be heard here: a machine with no sound server (PulseAudio, PipeWire's
/// pulse) and no sound card still takes calls, silently. `intercom doctor` and the daemon's start
/// say so in one line instead of leaving the user to wonder.
public enum SoundCheck {
    public static let noSound = "no sound server (PulseAudio or PipeWire) and no sound card (/dev/snd): "
        + "calls still work, without sound here"

    /// The one line, or nil when a server or a card is there.
    public static func problem(_ devices: [AudioDevice], soundCardFolder: String = "/dev/snd") -> String? {
        if devices.contains(where: { $0.driver.lowercased().contains("pulse") }) { return nil }
        let cards = (try? FileManager.default.contentsOfDirectory(atPath: soundCardFolder)) ?? []
        return cards.contains(where: { $0.hasPrefix("pcm") }) ? nil : noSound
    }

    /// How doctor shows a device: its description, what it does, and the config line that picks it.
    public static func describe(_ device: AudioDevice) -> String {
        let caps = [device.canPlay ? "play" : nil, device.canRecord ? "record" : nil].compactMap { $0 }.joined(separator: "+")
        let key = device.canPlay ? "playback" : "capture"
        return "\(device.name.isEmpty ? device.id : device.name) (\(device.driver), \(caps)): [audio] \(key) = \(device.id)"
    }
}
