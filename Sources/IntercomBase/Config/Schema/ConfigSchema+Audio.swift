/// `[audio]`: the sound devices and the ringtone.
extension ConfigSchema {
    static var audio: ConfigSection<AudioSettings, AudioSettings> {
        ConfigSection(
            kind: "audio",
            about: "Sound devices, by the names `intercom doctor` lists. An empty value means `default`.",
            example: ConfigExampleLine(key: "[audio]", ""),
            keys: [
                .field("playback", \.playback, .audioDevice, default: .value("default"), reload: .restart,
                       about: "Where call audio and the ringtone play.",
                       example: [ConfigExampleLine("default", ["device names as `intercom doctor` lists them"], width: 8)]),
                .field("capture", \.capture, .audioDevice, default: .value("default"), reload: .restart,
                       about: "The microphone.",
                       example: [ConfigExampleLine("default", width: 8)]),
                .field("speaker", \.speaker, .audioDevice, default: .value("default"), reload: .restart,
                       about: "The device the speaker toggle (`s`, `ctl speaker`) switches call audio to.",
                       example: [ConfigExampleLine("default", ["the device the speaker toggle switches to"], width: 8)]),
                .field("ringtone", \.ringtone, ringtoneParser, default: .value("default"), reload: .restart,
                       about: "A WAV file, or the name of a bundled ringtone (`Resources/ringtones`).",
                       example: [ConfigExampleLine("default", ["a WAV path, or a name under Resources/ringtones"], width: 8)]),
            ],
            start: { _, _ in AudioSettings.defaults },
            finish: { draft, _, _ throws(ConfigError) in draft },
            place: .single(\.audio))
    }

    /// A name stays a name; a path with `~` or `$VAR` is expanded.
    static var ringtoneParser: ConfigValueParser<String> {
        ConfigValueParser(type: "WAV path or ringtone name (empty = default)") { text, context throws(ConfigValueError) in
            let device = text.isEmpty ? "default" : text
            return device.hasPrefix("~") || device.contains("$") ? try context.expander.expand(device) : device
        }
    }
}
