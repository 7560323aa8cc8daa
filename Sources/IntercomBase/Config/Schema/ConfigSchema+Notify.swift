/// `[notify]`: the ring beyond the screen — desktop notifications and the terminal's own.
extension ConfigSchema {
    static var notify: ConfigSection<NotifySettings, NotifySettings> {
        ConfigSection(
            kind: "notify",
            about: "Where a ring is posted besides the screen: a desktop notification (freedesktop, over the session bus) "
                + "with the panel's picture and Answer / Open door / Decline buttons, closed when the call is answered or "
                + "ends; and the terminal client's notification escape (kitty OSC 99, OSC 777, OSC 9). Anyone on your "
                + "session bus can press the buttons (docs/SECURITY.md).",
            example: ConfigExampleLine(key: "[notify]", ""),
            keys: [
                .field("desktop", \.desktop, .choice, default: .value("auto"), reload: .restart,
                       about: "Desktop notifications from the daemon (or a terminal client running its own engine): "
                           + "`auto` when a session bus and a notification server are there, `on` always (a missing one "
                           + "is a warning), `off` never. Buttons where the server offers actions.",
                       example: [ConfigExampleLine("auto", ["auto | on | off: freedesktop notification with buttons"], width: 8)]),
                .field("terminal", \.terminal, .choice, default: .value("auto"), reload: .restart,
                       about: "The terminal client's notification escape where the terminal is known to show it "
                           + "(kitty OSC 99, foot/WezTerm/konsole OSC 777, iTerm2/ghostty/Windows Terminal OSC 9; "
                           + "else the bell): `auto` when the terminal has lost focus (focus reporting) and the client does not post the "
                           + "desktop notification itself, `on` always, `off` never.",
                       example: [ConfigExampleLine("auto", ["auto (when the terminal is not in focus) | on | off"], width: 8)]),
            ],
            start: { _, _ in NotifySettings.defaults },
            finish: { draft, _, _ throws(ConfigError) in draft },
            place: .single(\.notify))
    }
}
