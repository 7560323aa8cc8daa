import Foundation
import IntercomCore
import IntercomBase

/// `config.ini` the way `ConfigLoader.load` takes it: bytes that must be UTF-8, the INI
/// syntax, then every typed value; afterwards the decoded panels are used the way an
/// incoming call uses them (caller matching, guest mode, the URL's host).
enum ConfigFuzz {
    /// Fixed so an input means the same thing on every machine that replays it.
    static let environment = ["HOME": "/home/fuzz", "XDG_RUNTIME_DIR": "/run/user/1000"]
    static let timeZone = TimeZone(secondsFromGMT: 3 * 3600) ?? .gmt
    static let callers: [(uri: String, ip: String?)] = [
        ("\"Door\" <sip:100001@192.168.1.50:5060;transport=udp>", nil),
        ("sip:100001@[2001:db8::1]", "2001:db8::1"),
        ("sips:gate@example.org", "10.0.0.7"),
    ]

    static func run(_ input: [UInt8]) {
        // The loader refuses a file that is not UTF-8 before parsing it.
        guard let text = String(validating: input, as: UTF8.self) else { return }
        let loaded: LoadedConfig
        do {
            loaded = try ConfigLoader.parse(text: text, path: "/fuzz/config.ini", environment: environment,
                                            timeZone: timeZone)
        } catch {
            precondition(!error.description.isEmpty)
            return
        }
        for warning in loaded.warnings { precondition(!warning.description.isEmpty) }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for panel in loaded.config.panels {
            precondition(!panel.name.isEmpty, "a decoded panel has a name")
            for caller in callers { _ = panel.matches(uri: caller.uri, ip: caller.ip) }
            _ = panel.isGuestModeActive(at: now)
            _ = panel.urlHost
            _ = panel.sourceAddresses
        }
        // Who is calling, by the rules a decoded config gives (no DNS here: names resolve to nothing).
        let directory = CallerDirectory(panels: loaded.config.panels, registrarHosts: [], rejectStrangers: true) { _ in [] }
        for caller in callers { _ = directory.identify(from: caller.uri, contactHost: caller.ip, source: caller.ip) }
        for address in loaded.config.sip.listen {
            precondition((0...65535).contains(address.port), "listen ports are checked")
            // What the phone hands to liblinphone must read back as the same address.
            precondition((try? ListenAddress(parsing: address.description)) == address,
                         "listen address \(address) does not survive its own spelling")
        }
    }
}
