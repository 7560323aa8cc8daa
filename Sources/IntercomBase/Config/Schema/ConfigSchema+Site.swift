/// `[site]`: several desks sharing one PostgreSQL store (docs/SITE.md). Read at start; a change takes a restart.
extension ConfigSchema {
    static var site: ConfigSection<SiteConfig, SiteConfig?> {
        ConfigSection(
            kind: "site",
            about: "Several desks as one intercom: the shared journal, switches, desks and who has each call live in a "
                + "PostgreSQL database the desks share (docs/SITE.md). Without this section the machine stands alone "
                + "(SQLite journal, state file). `intercom site init` creates or upgrades the database's schema.",
            example: ConfigExampleLine(key: "[site]", "", ["optional: several desks on one PostgreSQL (docs/SITE.md)"],
                                       commentedOut: true),
            keys: [
                SiteKey("url", type: "postgresql:// URI (libpq's), no password in it", default: .note("required"),
                        reload: .restart,
                        about: "The site's database as a libpq URI, e.g. `postgresql://intercom@db.example/intercom` "
                            + "(`postgresql:///intercom` for the local unix socket). A host that is not loopback or a "
                            + "unix socket is reached with `sslmode=verify-full` unless `tls = off`.",
                        example: [ConfigExampleLine("postgresql://intercom@db.example/intercom", width: 16, commentedOut: true)],
                        whenMissing: "add 'url = postgresql://intercom@DB-HOST/intercom'",
                        decode: { draft, entry, _ throws(ConfigValueError) in draft.url = try siteURL(entry.value) },
                        differs: { $0?.url != $1?.url }),
                SiteKey("password_file", type: ConfigValueParser<String>.absolutePath.type + " (empty = libpq's PGPASSFILE)",
                        default: .value(""), reload: .restart,
                        about: "A file holding the role's password on its first line: a regular file of this user's, mode "
                            + "0600, else a config error. Empty: libpq's own `PGPASSFILE` (or `~/.pgpass`), or no password.",
                        example: [ConfigExampleLine("", ["the password's file (chmod 600); never the password here"], width: 16, commentedOut: true)],
                        decode: { draft, entry, context throws(ConfigValueError) in
                            draft.passwordFile = try ConfigValueParser.absolutePath.optional.parse(entry.value, context.parse)
                        },
                        differs: { $0?.passwordFile != $1?.passwordFile }),
                SiteKey("desk", type: "1 to 64 letters, digits, `-`, `_` or `.`", default: .note("the machine's name"),
                        reload: .restart,
                        about: "This desk's name as the other desks, the journal and `ctl site` show it; unique in the site.",
                        example: [ConfigExampleLine("", ["empty = this machine's name"], width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in
                            draft.desk = entry.value.isEmpty ? nil : try name(entry.value, key: "desk", example: "lobby")
                        },
                        differs: { $0?.desk != $1?.desk }),
                SiteKey("operator", type: "1 to 64 letters, digits, `-`, `_` or `.` (empty = nobody named)",
                        default: .value(""), reload: .restart,
                        about: "Who is on duty at this desk, as the journal and the other desks name them.",
                        example: [ConfigExampleLine("", ["who is on duty here"], width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in
                            draft.operator = entry.value.isEmpty ? nil : try name(entry.value, key: "operator", example: "anna")
                        },
                        differs: { $0?.operator != $1?.operator }),
                SiteKey("tls", type: "auto | off", default: .value("auto"), reload: .restart,
                        about: "`auto`: a host that is not loopback or a unix socket is reached with `sslmode=verify-full` "
                            + "(the server's certificate checked against the CA in the url's `sslrootcert`, else libpq's "
                            + "`~/.postgresql/root.crt`, and its name); "
                            + "a `url` asking for less is a config error. `off`: the `url`'s own `sslmode` stands, and the "
                            + "password and every journal entry may cross the network in clear.",
                        example: [ConfigExampleLine("auto", ["off = as the url says, even in clear"], width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in draft.tls = try ConfigDecoder.choice(entry.value, SiteTLS.self) },
                        differs: { $0?.tls != $1?.tls }),
                SiteKey("escalate_after", type: "`off` or seconds, 5 to 3600 (`90`, `90s`, `2m`)", default: .value("off"),
                        reload: .restart,
                        about: "A ring no desk on duty answers within this long is transferred to `escalate_to`.",
                        example: [ConfigExampleLine("off", ["e.g. 60s: then transfer to escalate_to"], width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in draft.escalateAfter = try escalation(entry.value) },
                        differs: { $0?.escalateAfter != $1?.escalateAfter }),
                SiteKey("escalate_to", type: "sip: or sips: URI (empty = not set)", default: .value(""), reload: .restart,
                        about: "Where an unanswered ring goes after `escalate_after` (a blind transfer), e.g. a guard's phone.",
                        example: [ConfigExampleLine("", ["e.g. sip:guard@pbx.example.org"], width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in
                            draft.escalateTo = entry.value.isEmpty ? nil
                                : try ConfigDecoder.sipURI(entry.value, example: "escalate_to = sip:guard@pbx.example.org")
                        },
                        differs: { $0?.escalateTo != $1?.escalateTo }),
                SiteKey("timeout", type: "seconds, 1 to 60 (`5`, `5s`, `1m`)", default: .value("5"), reload: .restart,
                        about: "How long one request to the site's database (its connect included) may take. A store "
                            + "that does not answer in time (a frozen server, a dead link that sends no reset) fails the "
                            + "request: the desk says the site is unreachable, keeps its writes and sends them when it answers.",
                        example: [ConfigExampleLine("5", ["seconds a store request may take"], width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in draft.timeout = try requestTimeout(entry.value) },
                        differs: { $0?.timeout != $1?.timeout }),
            ],
            start: { _, _ in SiteConfig(url: "") },
            finish: { draft, section, file throws(ConfigError) in
                func line(_ key: String) -> Int { section.entries.last { $0.key == key }?.line ?? section.line }
                if draft.escalateAfter != nil && draft.escalateTo == nil {
                    throw ConfigError(file: file, line: line("escalate_after"), key: "escalate_after", section: section.label,
                                      message: "is set but escalate_to is not: an unanswered ring would have nowhere to go",
                                      fix: "add 'escalate_to = sip:guard@pbx.example.org', or set 'escalate_after = off'")
                }
                if let target = SiteURL(parsing: draft.url), draft.tls == .auto, target.reachesAnotherMachine,
                   let mode = target.sslMode, mode != "verify-full" {
                    throw ConfigError(file: file, line: line("tls"), key: "tls", section: section.label,
                                      message: "url asks for sslmode=\(mode) to another machine; tls = auto requires "
                                          + "sslmode=verify-full there (the password and the journal would cross unverified)",
                                      fix: "remove sslmode from the url or make it verify-full, or accept the risk with 'tls = off'")
                }
                return draft
            },
            place: .single(\.site))
    }

    typealias SiteKey = ConfigKey<SiteConfig, SiteConfig?>

    static func siteURL(_ text: String) throws(ConfigValueError) -> String {
        let example = "url = postgresql://intercom@db.example/intercom"
        guard let target = SiteURL(parsing: text) else {
            throw ConfigValueError("must be a postgresql:// URI without spaces", fix: "e.g. \(example)")
        }
        if target.hasPassword {
            throw ConfigValueError("must not contain a password",
                                   fix: "put it in a file named by 'password_file' (chmod 600), or in libpq's PGPASSFILE")
        }
        return text
    }

    static func name(_ text: String, key: String, example: String) throws(ConfigValueError) -> String {
        guard (1...64).contains(text.count),
              text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw ConfigValueError("'\(text)' is not 1 to 64 letters, digits, '-', '_' or '.'", fix: "e.g. \(key) = \(example)")
        }
        return text
    }

    static func requestTimeout(_ text: String) throws(ConfigValueError) -> Duration {
        guard let seconds = seconds(text), (1...60).contains(seconds) else {
            throw ConfigValueError("'\(text)' is not a time from 1 s to 60 s", fix: "e.g. timeout = 5s")
        }
        return .seconds(seconds)
    }

    /// `90`, `90s` or `2m` as seconds; nil when it is none of these.
    private static func seconds(_ text: String) -> Int? {
        let lower = text.lowercased()
        let (digits, scale) = lower.hasSuffix("m") ? (lower.dropLast(), 60) : lower.hasSuffix("s") ? (lower.dropLast(), 1) : (lower[...], 1)
        return Int(digits).map { $0 * scale }
    }

    static func escalation(_ text: String) throws(ConfigValueError) -> Duration? {
        let fix = "e.g. escalate_after = 60s (5 s to 60 min), or off"
        if text.lowercased() == "off" { return nil }
        guard let seconds = seconds(text), (5...3600).contains(seconds) else {
            throw ConfigValueError("'\(text)' is not off or a time from 5 s to 60 min", fix: fix)
        }
        return .seconds(seconds)
    }
}
