import Foundation
import IntercomBase

/// Do-not-disturb and guest mode as switched at run time (the control socket, MQTT, the TUI),
/// kept in `$XDG_STATE_HOME/intercom/switches.json` (0600, written whole) so they survive a
/// restart and a SIGHUP. Each switch remembers what the config said when it was flipped: once
/// the config's own value changes (the user edited the file), the config wins and the switch is
/// forgotten. So the latest change, from either side, is the one in force; the config file itself
/// is never rewritten. A switch that cannot be saved throws (`StateDirectoryError`): the engine then
/// tells whoever flipped it, instead of holding it only until the next restart.
public struct PanelSwitchStore: Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    public init(environment: [String: String]) {
        self.init(path: XDGDirectories(environment: environment).stateDirectory + "/switches.json")
    }

    /// One panel's switches: the value in force and the config's value when it was set.
    struct Entry {
        var calls: (value: Bool, config: Bool)?
        var guest: (value: Date?, config: Date?)?
    }

    /// The panels with the stored switches applied where the config has not changed since;
    /// stale switches are dropped from the file.
    public func apply(to panels: [PanelConfig], logger: Logger) -> [PanelConfig] {
        var entries = load(logger: logger)
        var result = panels
        var changed = false
        for index in result.indices {
            let key = result[index].name.lowercased()
            guard var entry = entries[key] else { continue }
            if let calls = entry.calls {
                if calls.config == result[index].calls { result[index].calls = calls.value } else { entry.calls = nil; changed = true }
            }
            if let guest = entry.guest {
                if guest.config == result[index].guestUntil { result[index].guestUntil = guest.value } else { entry.guest = nil; changed = true }
            }
            entries[key] = entry.calls == nil && entry.guest == nil ? nil : entry
        }
        if changed {
            // Only a stale entry is dropped: the config's values hold either way, so a failure is logged.
            do {
                try save(entries, logger: logger)
            } catch {
                logger.warning("switches: \(error)")
            }
        }
        return result
    }

    /// Records a switch flipped on `panel`, whose config value (the file's) is `configured`.
    public func setCalls(_ on: Bool, panel: String, configured: Bool, logger: Logger) throws(StateDirectoryError) {
        var entries = load(logger: logger)
        entries[panel.lowercased(), default: Entry()].calls = (on, configured)
        try save(entries, logger: logger)
    }

    public func setGuest(_ until: Date?, panel: String, configured: Date?, logger: Logger) throws(StateDirectoryError) {
        var entries = load(logger: logger)
        entries[panel.lowercased(), default: Entry()].guest = (until, configured)
        try save(entries, logger: logger)
    }

    private func load(logger: Logger) -> [String: Entry] {
        var info = stat()
        guard lstat(path, &info) == 0 else { return [:] }
        // A file we did not write (another user's, a link) could switch guest mode on: it is not read.
        guard info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else {
            logger.warning("switches: \(path) is not a plain file of ours; ignoring it (remove it; it is written again at the next switch)")
            return [:]
        }
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        guard let json = JSONValue.parse(String(decoding: data, as: UTF8.self)), case .object(let panels) = json else {
            logger.warning("switches: \(path) is not a JSON object; ignoring it (it is rewritten at the next switch)")
            return [:]
        }
        var entries: [String: Entry] = [:]
        for (name, value) in panels {
            var entry = Entry()
            if let calls = value["calls"]?.boolValue, let config = value["calls_config"]?.boolValue {
                entry.calls = (calls, config)
            }
            if let guest = value["guest_until"], let config = value["guest_until_config"] {
                entry.guest = (Self.date(guest), Self.date(config))
            }
            entries[name] = entry
        }
        return entries
    }

    private func save(_ entries: [String: Entry], logger: Logger) throws(StateDirectoryError) {
        func time(_ date: Date?) -> JSONValue { date.map { .number($0.timeIntervalSince1970) } ?? .null }
        let object = JSONValue.object(entries.sorted { $0.key < $1.key }.map { name, entry in
            var fields: [(String, JSONValue)] = []
            if let calls = entry.calls { fields += [("calls", .bool(calls.value)), ("calls_config", .bool(calls.config))] }
            if let guest = entry.guest { fields += [("guest_until", time(guest.value)), ("guest_until_config", time(guest.config))] }
            return (name, .object(fields))
        })
        try StateDirectory.ensure((path as NSString).deletingLastPathComponent) { logger.notice("switches: \($0)") }
        do {
            try DurableFile.write(Data((object.encoded + "\n").utf8), to: path)
        } catch {
            // DurableFile speaks for the journal; its own words without that prefix.
            let detail = if case .io(let message) = error { message } else { error.description }
            throw StateDirectoryError((path as NSString).deletingLastPathComponent, .cannotSave(file: path, detail: detail))
        }
    }

    private static func date(_ value: JSONValue) -> Date? {
        switch value {
        case .number(let seconds): Date(timeIntervalSince1970: seconds)
        case .integer(let seconds): Date(timeIntervalSince1970: Double(seconds))
        default: nil
        }
    }
}
