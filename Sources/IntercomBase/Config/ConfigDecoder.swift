import Foundation

/// Turns an `INIDocument` into an `IntercomConfig`, checking every value.
/// Unknown sections and keys become warnings, not errors, so a config written
/// for a newer version still starts an older one.
struct ConfigDecoder {
    let file: String
    let environment: [String: String]
    let timeZone: TimeZone
    var warnings: [ConfigWarning] = []

    /// `on_NAME` for every event: the hook list is the event list (it once missed `call_outgoing`).
    static let hookEvents = Set(EventName.allCases.map(\.rawValue))

    init(file: String, environment: [String: String], timeZone: TimeZone) {
        self.file = file
        self.environment = environment
        self.timeZone = timeZone
    }

    mutating func decode(_ document: INIDocument, path: String?) throws(ConfigError) -> IntercomConfig {
        var config = IntercomConfig.defaults(environment: environment)
        config.path = path
        var panelNames: [String: Int] = [:]
        var operatorNames: [String: Int] = [:]

        for section in document.sections {
            switch section.kind {
            case "sip":
                try requireNoName(section)
                config.sip = try decodeSIP(section)
            case "audio":
                try requireNoName(section)
                config.audio = try decodeAudio(section)
            case "daemon":
                try requireNoName(section)
                config.daemon = try decodeDaemon(section, defaults: config.daemon)
            case "journal":
                try requireNoName(section)
                config.journal = try decodeJournal(section)
            case "hooks":
                try requireNoName(section)
                config.hooks = try decodeHooks(section)
            case "panel":
                guard let name = section.name, !name.isEmpty else {
                    throw ConfigError(file: file, line: section.line, section: section.label,
                                      message: "a panel needs a name", fix: "write it as [panel NAME]")
                }
                // Case-insensitive so `intercom open Gate` can never be ambiguous.
                if let first = panelNames[name.lowercased()] {
                    throw ConfigError(file: file, line: section.line, section: section.label,
                                      message: "panel name already used on line \(first)",
                                      fix: "give each panel a different name")
                }
                panelNames[name.lowercased()] = section.line
                config.panels.append(try decodePanel(section, name: name))
            case "operator":
                guard let name = section.name, !name.isEmpty else {
                    throw ConfigError(file: file, line: section.line, section: section.label,
                                      message: "an operator needs a name", fix: "write it as [operator NAME]")
                }
                if let first = operatorNames[name.lowercased()] {
                    throw ConfigError(file: file, line: section.line, section: section.label,
                                      message: "operator name already used on line \(first)",
                                      fix: "give each operator a different name")
                }
                operatorNames[name.lowercased()] = section.line
                config.operators.append(try decodeOperator(section, name: name))
            default:
                warnings.append(ConfigWarning(file: file, line: section.line,
                                              message: "unknown section \(section.label) (ignored)"))
            }
        }
        return config
    }

    // MARK: sections

    private mutating func decodeSIP(_ section: INISection) throws(ConfigError) -> SIPSettings {
        var settings = SIPSettings.defaults
        var identity: String?
        var password: String?
        var proxy: String?
        var expires = 600
        var accountOnlyEntry: INIEntry?

        for entry in section.entries {
            switch entry.key {
            case "listen":
                settings.listen = try value(entry, section) { text throws(ConfigValueError) in
                    let items = try Self.list(text)
                    guard !items.isEmpty else {
                        throw ConfigValueError("needs at least one address", fix: "e.g. udp:127.0.0.1:5060")
                    }
                    var addresses: [ListenAddress] = []
                    for item in items {
                        let address = try ListenAddress(parsing: item)
                        // belle-sip 5.1 accepts a TLS connection and closes it at once ("not handled"):
                        // a tls: listener would look like it works and take no call.
                        guard address.transport != .tls else {
                            throw ConfigValueError(
                                "'\(item)': liblinphone cannot take incoming SIP over TLS (it closes every such connection)",
                                fix: "remove it; for SIP over TLS register with account and proxy = sip:HOST:5061;transport=tls")
                        }
                        addresses.append(address)
                    }
                    return addresses
                }
            case "unknown_callers":
                settings.unknownCallers = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.choice(text, UnknownCallerPolicy.self)
                }
            case "decline_others":
                settings.declineOthersOnAnswer = try value(entry, section) { text throws(ConfigValueError) in try Self.onOff(text) }
            case "ring_timeout":
                settings.incomingTimeoutSeconds = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.integer(text, in: 1...3600, unit: "seconds")
                }
            case "media_timeout":
                settings.mediaTimeoutSeconds = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.integer(text, in: 1...3600, unit: "seconds")
                }
            case "account":
                identity = try value(entry, section) { text throws(ConfigValueError) in
                    text.isEmpty ? nil : try Self.sipURI(text)
                }
            case "password":
                password = entry.value.isEmpty ? nil : entry.value
                if !entry.value.isEmpty { accountOnlyEntry = accountOnlyEntry ?? entry }
            case "proxy":
                proxy = try value(entry, section) { text throws(ConfigValueError) in
                    text.isEmpty ? nil : try Self.sipURI(text)
                }
                if !entry.value.isEmpty { accountOnlyEntry = accountOnlyEntry ?? entry }
            case "tls_cert":
                settings.tls.certificate = try value(entry, section) { text throws(ConfigValueError) in
                    text.isEmpty ? nil : try Self.absolutePath(text, expander: expander)
                }
            case "tls_key":
                settings.tls.key = try value(entry, section) { text throws(ConfigValueError) in
                    text.isEmpty ? nil : try Self.absolutePath(text, expander: expander)
                }
            case "tls_ca":
                settings.tls.caFile = try value(entry, section) { text throws(ConfigValueError) in
                    text.isEmpty ? nil : try Self.absolutePath(text, expander: expander)
                }
            case "tls_verify":
                settings.tls.verify = try value(entry, section) { text throws(ConfigValueError) in try Self.onOff(text) }
            case "media_encryption":
                settings.mediaEncryption = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.choice(text, MediaEncryption.self)
                }
            case "register_expires":
                expires = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.integer(text, in: 60...86400, unit: "seconds")
                }
                if !entry.value.isEmpty { accountOnlyEntry = accountOnlyEntry ?? entry }
            default:
                warnUnknownKey(entry, section)
            }
        }

        if (settings.tls.certificate == nil) != (settings.tls.key == nil),
           let lone = section.entries.last(where: { ($0.key == "tls_cert" || $0.key == "tls_key") && !$0.value.isEmpty }) {
            let other = lone.key == "tls_cert" ? "tls_key" : "tls_cert"
            throw ConfigError(file: file, line: lone.line, key: lone.key, section: section.label,
                              message: "is set but '\(other)' is not", fix: "set both, or neither")
        }
        if let identity {
            settings.account = SIPAccount(identity: identity, password: password, proxy: proxy,
                                          expiresSeconds: expires)
        } else if let orphan = accountOnlyEntry {
            throw ConfigError(file: file, line: orphan.line, key: orphan.key, section: section.label,
                              message: "is set but there is no 'account'",
                              fix: "add 'account = sip:USER@REGISTRAR' or remove '\(orphan.key)'")
        }
        return settings
    }

    private mutating func decodeAudio(_ section: INISection) throws(ConfigError) -> AudioSettings {
        var settings = AudioSettings.defaults
        for entry in section.entries {
            // Empty means "default" so that `capture =` in a template is harmless.
            let device = entry.value.isEmpty ? "default" : entry.value
            switch entry.key {
            case "playback": settings.playback = device
            case "capture": settings.capture = device
            case "speaker": settings.speaker = device
            case "ringtone":
                settings.ringtone = try value(entry, section) { _ throws(ConfigValueError) in
                    device.hasPrefix("~") || device.contains("$") ? try expander.expand(device) : device
                }
            default: warnUnknownKey(entry, section)
            }
        }
        return settings
    }

    private mutating func decodeDaemon(_ section: INISection,
                                       defaults: DaemonSettings) throws(ConfigError) -> DaemonSettings {
        var settings = defaults
        for entry in section.entries {
            switch entry.key {
            case "socket":
                guard !entry.value.isEmpty else { continue }
                settings.socketPath = try value(entry, section) { text throws(ConfigValueError) in
                    let path = try Self.absolutePath(text, expander: expander)
                    // sun_path is 108 bytes including the NUL; fail here, not at bind time.
                    guard path.utf8.count <= 107 else {
                        throw ConfigValueError("socket path is longer than 107 bytes",
                                               fix: "choose a shorter path")
                    }
                    return path
                }
            default:
                warnUnknownKey(entry, section)
            }
        }
        return settings
    }

    private mutating func decodeJournal(_ section: INISection) throws(ConfigError) -> JournalSettings {
        var settings = JournalSettings.defaults
        for entry in section.entries {
            switch entry.key {
            case "keep_days":
                settings.keepDays = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.integer(text, in: 1...36500, unit: "days")
                }
            case "max_mb":
                settings.maxMB = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.integer(text, in: 1...1_000_000, unit: "megabytes")
                }
            case "path":
                settings.path = try value(entry, section) { text throws(ConfigValueError) in
                    text.isEmpty ? nil : try Self.absolutePath(text, expander: expander)
                }
            default:
                warnUnknownKey(entry, section)
            }
        }
        return settings
    }

    private mutating func decodeHooks(_ section: INISection) throws(ConfigError) -> [String: String] {
        var hooks: [String: String] = [:]
        for entry in section.entries {
            guard entry.key.hasPrefix("on_") else {
                warnUnknownKey(entry, section)
                continue
            }
            let event = String(entry.key.dropFirst(3))
            guard Self.hookEvents.contains(event) else {
                warnings.append(ConfigWarning(
                    file: file, line: entry.line, key: entry.key,
                    message: "unknown event '\(event)' in key '\(entry.key)' in \(section.label) (ignored)"))
                continue
            }
            guard !entry.value.isEmpty else { continue }
            hooks[event] = try value(entry, section) { text throws(ConfigValueError) in
                // Hooks run without a shell, so there is no PATH lookup to rely on.
                try Self.absolutePath(text, expander: expander)
            }
        }
        return hooks
    }

    // MARK: helpers

    var expander: PathExpander { PathExpander(environment: environment) }

    func requireNoName(_ section: INISection) throws(ConfigError) {
        guard let name = section.name else { return }
        throw ConfigError(file: file, line: section.line, section: section.label,
                          message: "[\(section.kind)] takes no name",
                          fix: "write it as [\(section.kind)] (only panels and operators are named, e.g. [panel \(name)])")
    }

    mutating func warnUnknownKey(_ entry: INIEntry, _ section: INISection) {
        warnings.append(ConfigWarning(file: file, line: entry.line, key: entry.key,
                                      message: "unknown key '\(entry.key)' in \(section.label) (ignored)"))
    }

    /// Runs a value parser and gives its error the file, line, key and section.
    func value<T>(_ entry: INIEntry, _ section: INISection,
                          _ parse: (String) throws(ConfigValueError) -> T) throws(ConfigError) -> T {
        do {
            return try parse(entry.value)
        } catch {
            throw ConfigError(file: file, line: entry.line, key: entry.key, section: section.label,
                              message: error.message, fix: error.fix)
        }
    }

    static func list(_ text: String) throws(ConfigValueError) -> [String] {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return [] }
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.contains(where: \.isEmpty) else {
            throw ConfigValueError("has an empty item in the comma-separated list",
                                   fix: "remove the extra comma")
        }
        return items
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ text: String, _ type: T.Type)
        throws(ConfigValueError) -> T where T.RawValue == String {
        if let match = T(rawValue: text.lowercased()) { return match }
        let options = T.allCases.map(\.rawValue).joined(separator: " | ")
        throw ConfigValueError("'\(text)' is not one of \(options)", fix: "use one of \(options)")
    }

    static func integer(_ text: String, in range: ClosedRange<Int>, unit: String) throws(ConfigValueError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw ConfigValueError("'\(text)' is not a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)",
                                   fix: "use a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    static func onOff(_ text: String) throws(ConfigValueError) -> Bool {
        switch text.lowercased() {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default: throw ConfigValueError("'\(text)' is not on or off", fix: "use on or off")
        }
    }

    static func autoAnswer(_ text: String) throws(ConfigValueError) -> AutoAnswer {
        switch text.lowercased() {
        case "off", "no", "false", "": return .off
        case "on", "yes", "true": return .on
        default:
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 3600 else {
                throw ConfigValueError("'\(text)' is not off, on or a delay in seconds (0 to 3600)",
                                       fix: "e.g. auto_answer = 5")
            }
            return seconds == 0 ? .on : .after(seconds: seconds)
        }
    }

    static func dtmf(_ text: String) throws(ConfigValueError) -> String {
        guard !text.isEmpty else {
            throw ConfigValueError("is empty", fix: "give the digits; quote a '#' like \"#\" so it is not a comment")
        }
        let digits = text.uppercased()
        guard digits.allSatisfy({ "0123456789*#ABCD".contains($0) }) else {
            throw ConfigValueError("'\(text)' may only hold 0-9, *, # and A-D", fix: "e.g. dtmf.main = 1")
        }
        return digits
    }

    /// An error shows the URI with any password in it masked: a mistyped line may still hold one.
    /// A bare URI: a header form (`"Door" <sip:…>`) is not what liblinphone takes here.
    static func sipURI(_ text: String, example: String = "sip:101@pbx.example.org") throws(ConfigValueError) -> String {
        guard !text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" }),
              let uri = SIPURI(parsing: text) else {
            throw ConfigValueError("'\(Redaction.uri(text))' is not a sip: URI", fix: "e.g. \(example)")
        }
        if uri.hasPassword {
            // It would travel in events, logs and `ctl status`; the password key is kept out of them.
            throw ConfigValueError("must not contain a password (sip:USER:PASSWORD@…)",
                                   fix: "put it in the 'password' key")
        }
        return text
    }

    /// The URL is never echoed: it might carry credentials.
    static func panelURL(_ text: String, example: String = "url = http://192.168.1.50") throws(ConfigValueError) -> String {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw ConfigValueError("must start with http:// or https://", fix: "e.g. \(example)")
        }
        guard !text.contains(where: \.isWhitespace) else {
            throw ConfigValueError("contains spaces", fix: "e.g. \(example)")
        }
        guard PanelConfig.host(ofURL: text) != nil else {
            throw ConfigValueError("has no host", fix: "e.g. \(example)")
        }
        if let schemeEnd = text.range(of: "://"),
           text[schemeEnd.upperBound...].prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" }).contains("@") {
            // Keeps secrets in `password`, where the file-permission rule sees them.
            throw ConfigValueError("must not contain a user or password",
                                   fix: "put them in the 'user' and 'password' keys")
        }
        var url = Substring(text)
        while url.hasSuffix("/") { url = url.dropLast() }
        return String(url)
    }

    static func absolutePath(_ text: String, expander: PathExpander) throws(ConfigValueError) -> String {
        let path = try expander.expand(text)
        guard path.hasPrefix("/") else {
            throw ConfigValueError("'\(text)' is not an absolute path", fix: "start it with '/' or '~/'")
        }
        return path
    }
}
