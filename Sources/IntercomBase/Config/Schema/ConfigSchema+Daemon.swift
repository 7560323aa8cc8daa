/// `[daemon]`, `[journal]` and `[hooks]`: the daemon's socket, its call journal and the programs
/// it runs on events.
extension ConfigSchema {
    static var daemon: ConfigSection<DaemonSettings, DaemonSettings> {
        ConfigSection(
            kind: "daemon",
            about: "The daemon's control socket (`intercom ctl` talks to it).",
            example: ConfigExampleLine(key: "[daemon]", ""),
            keys: [
                DaemonKey("socket", type: socketParser.type, default: .note("`$XDG_RUNTIME_DIR/intercom/control.sock`, "
                              + "or `/tmp/intercom-UID/control.sock` without a runtime directory"),
                          reload: .restart,
                          about: "The control socket's path (mode 0600; other users are refused). Empty keeps the default.",
                          example: [ConfigExampleLine("$XDG_RUNTIME_DIR/intercom/control.sock")],
                          decode: { draft, entry, context throws(ConfigValueError) in
                              guard !entry.value.isEmpty else { return }
                              draft.socketPath = try socketParser.parse(entry.value, context.parse)
                          },
                          differs: { $0.socketPath != $1.socketPath }),
            ],
            start: { _, environment in DaemonSettings.defaults(environment: environment) },
            finish: { draft, _, _ throws(ConfigError) in draft },
            place: .single(\.daemon))
    }

    typealias DaemonKey = ConfigKey<DaemonSettings, DaemonSettings>

    static var socketParser: ConfigValueParser<String> {
        ConfigValueParser(type: "absolute path, at most 107 bytes") { text, context throws(ConfigValueError) in
            let path = try ConfigDecoder.absolutePath(text, expander: context.expander)
            // sun_path is 108 bytes including the NUL; fail here, not at bind time.
            guard path.utf8.count <= 107 else {
                throw ConfigValueError("socket path is longer than 107 bytes", fix: "choose a shorter path")
            }
            return path
        }
    }

    static var journal: ConfigSection<JournalSettings, JournalSettings> {
        ConfigSection(
            kind: "journal",
            about: "The journal of calls, door openings and alarms (SQLite, with JPEG pictures beside it). "
                + "SIGHUP applies the new retention at the next pruning.",
            example: ConfigExampleLine(key: "[journal]", ""),
            keys: [
                .field("keep_days", \.keepDays, .integer(1...36500, unit: "days"), default: .value("90"), reload: .live,
                       about: "Entries and pictures older than this many days are removed.",
                       example: [ConfigExampleLine("90", ["pictures and entries older than this are removed"], width: 9)]),
                .field("max_mb", \.maxMB, .integer(1...1_000_000, unit: "megabytes"), default: .value("500"), reload: .live,
                       about: "The journal directory's size cap; the oldest entries go first.",
                       example: [ConfigExampleLine("500", width: 9)]),
                .field("path", \.path, ConfigValueParser.absolutePath.optional, default: .note("`$XDG_DATA_HOME/intercom`"),
                       reload: .restart,
                       about: "The journal directory.",
                       example: [ConfigExampleLine("", ["empty = $XDG_DATA_HOME/intercom"], width: 9)]),
            ],
            start: { _, _ in JournalSettings.defaults },
            finish: { draft, _, _ throws(ConfigError) in draft },
            place: .single(\.journal))
    }

    static var hooks: ConfigSection<HookSettings, HookSettings> {
        ConfigSection(
            kind: "hooks",
            about: "A program per event type, run with argv and `INTERCOM_*` environment variables, never through a "
                + "shell, killed after 10 s. SIGHUP applies new hooks to the next event.",
            example: ConfigExampleLine(key: "[hooks]", "", ["a program per event type, run with argv + environment,"]),
            keys: [
                ConfigKey("on_EVENT", matches: { $0.hasPrefix("on_") }, type: "absolute path",
                          default: .note("none"), reload: .live,
                          about: "The program run on each event of that type, e.g. `on_call_incoming`: `EVENT` is "
                              + "any event name (" + EventName.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")
                              + "). An unknown event name is a warning.",
                          example: [ConfigExampleLine(key: "on_call_incoming", "", ["never through a shell; absolute paths only"], width: 16),
                                    ConfigExampleLine(key: "on_door_opened", "", width: 16)],
                          decode: { settings, entry, context throws(ConfigValueError) in
                              let event = String(entry.key.dropFirst(3))
                              guard ConfigDecoder.hookEvents.contains(event) else {
                                  context.warn(entry, "unknown event '\(event)' in key '\(entry.key)' in \(context.section.label) (ignored)")
                                  return
                              }
                              guard !entry.value.isEmpty else { return }
                              // Hooks run without a shell, so there is no PATH lookup to rely on.
                              settings.programs[event] = try ConfigDecoder.absolutePath(entry.value, expander: context.parse.expander)
                          },
                          differs: { $0.programs != $1.programs }, apply: { $0.programs = $1.programs }),
                .field("snapshot_wait_ms", \.snapshotWaitMs, .integer(0...5000, unit: "milliseconds"),
                       default: .value("\(HookSettings.defaultSnapshotWaitMs)"), reload: .live,
                       about: "How long an `on_call_incoming` hook waits for the call's first peephole picture (it usually "
                           + "comes a few milliseconds after the ring) before it runs: `INTERCOM_SNAPSHOT` names the picture "
                           + "when it came in time, and is absent when it did not (or without a journal). 0 = run at once.",
                       example: [ConfigExampleLine("300", ["0 = run on_call_incoming at once, without the picture"], width: 16)]),
            ],
            start: { _, _ in HookSettings() },
            finish: { draft, _, _ throws(ConfigError) in draft },
            place: .single(\.hookSettings))
    }
}
