import Foundation
import IntercomBase

/// Do-not-disturb and guest mode as switched at run time (the control socket, MQTT, the TUI),
/// kept in `$XDG_STATE_HOME/intercom/switches.json` (0600, written whole) so they survive a
/// restart and a SIGHUP. Each switch remembers what the config said when it was flipped: once
/// the config's own value changes (the user edited the file), the config wins and the switch is
/// forgotten. So the latest change, from either side, is the one in force; the config file itself
/// is never rewritten. A switch that cannot be saved throws (`StateDirectoryError`): the engine then
/// tells whoever flipped it, instead of holding it only until the next restart.
///
/// The file is never silently passed over: one that cannot be trusted or understood (not ours,
/// open to others, unreadable, damaged) would otherwise bring back the config's `guest_until`
/// that a switch turned off. The daemon and the terminal client refuse to start on it (`check`);
/// where the engine runs on regardless (SIGHUP, the one-shot commands), every panel's guest mode is
/// off and the error says why; a switch is refused rather than written over it.
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

    /// Reads the file as `apply` would; throws what is wrong with it (nothing when it is absent).
    public func check() throws(StateFileError) {
        _ = try load()
    }

    /// The panels with the stored switches applied where the config has not changed since;
    /// stale switches are dropped from the file. A file that cannot be used leaves every panel's
    /// guest mode off, logged as an error: never the config's `guest_until`.
    public func apply(to panels: [PanelConfig], logger: Logger) -> [PanelConfig] {
        var entries: [String: Entry]
        do {
            entries = try load()
        } catch {
            logger.error("switches: \(error); until then guest mode is off on every panel")
            return panels.map { panel in
                var panel = panel
                panel.guestUntil = nil
                return panel
            }
        }
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
        var entries = try loadForChange()
        entries[panel.lowercased(), default: Entry()].calls = (on, configured)
        try save(entries, logger: logger)
    }

    public func setGuest(_ until: Date?, panel: String, configured: Date?, logger: Logger) throws(StateDirectoryError) {
        var entries = try loadForChange()
        entries[panel.lowercased(), default: Entry()].guest = (until, configured)
        try save(entries, logger: logger)
    }

    /// The entries before a switch: a file that cannot be used is not written over, as that would
    /// drop the other panels' switches and bring back their config's `guest_until` at the next start.
    private func loadForChange() throws(StateDirectoryError) -> [String: Entry] {
        do {
            return try load()
        } catch {
            throw StateDirectoryError((path as NSString).deletingLastPathComponent, .cannotSave(file: path, detail: error.description))
        }
    }

    private func load() throws(StateFileError) -> [String: Entry] {
        guard let data = try StateFile.read(path) else { return [:] }
        func damaged(_ detail: String) -> StateFileError { StateFileError(path, .damaged(detail)) }
        guard let json = JSONValue.parse(String(decoding: data, as: UTF8.self)), case .object(let panels) = json else {
            throw damaged("not a JSON object")
        }
        var entries: [String: Entry] = [:]
        for (name, value) in panels {
            guard case .object = value else { throw damaged("panel '\(name)' is not an object") }
            var entry = Entry()
            switch (value["calls"], value["calls_config"]) {
            case (nil, nil): break
            case (.bool(let calls)?, .bool(let config)?): entry.calls = (calls, config)
            default: throw damaged("panel '\(name)': calls and calls_config are not both true or false")
            }
            switch (value["guest_until"], value["guest_until_config"]) {
            case (nil, nil): break
            case (let guest?, let config?) where Self.isTime(guest) && Self.isTime(config):
                entry.guest = (Self.date(guest), Self.date(config))
            default: throw damaged("panel '\(name)': guest_until and guest_until_config are not both a time or null")
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

    /// A time as `save` writes it: seconds since 1970, or null for none.
    private static func isTime(_ value: JSONValue) -> Bool {
        switch value {
        case .number, .integer, .null: true
        default: false
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
