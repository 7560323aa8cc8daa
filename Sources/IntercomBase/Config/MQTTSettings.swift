import Foundation

/// The `[mqtt]` section: the broker the daemon (or the terminal client that records the journal)
/// publishes to, with Home Assistant discovery.
public struct MQTTSettings: Sendable, Equatable {
    /// `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`, no user or password in it.
    public var url: String
    public var user: String?
    public var password: String?
    /// The root of the intercom's own topics: `<topic_prefix>/<host>/…`.
    public var topicPrefix: String
    /// Where Home Assistant reads discovery configs; nil = publish none.
    public var discoveryPrefix: String?
    /// The MQTT client id; nil = `intercom-<host>`.
    public var clientID: String?
    /// A CA certificate (PEM) for `mqtts://`; nil = the system store.
    public var caFile: String?
    /// How long guest mode lasts when switched on over MQTT (a switch carries no end time).
    public var guestMinutes: Int
    /// `allow_plain = yes`: `mqtt://` (no TLS) to a broker that is not loopback, which is refused otherwise.
    public var allowPlain: Bool

    public init(url: String, user: String? = nil, password: String? = nil, topicPrefix: String = "intercom",
                discoveryPrefix: String? = "homeassistant", clientID: String? = nil, caFile: String? = nil,
                guestMinutes: Int = 120, allowPlain: Bool = false) {
        self.url = url
        self.user = user
        self.password = password
        self.topicPrefix = topicPrefix
        self.discoveryPrefix = discoveryPrefix
        self.clientID = clientID
        self.caFile = caFile
        self.guestMinutes = guestMinutes
        self.allowPlain = allowPlain
    }

    /// Whether the connection is TLS (`mqtts://`).
    public var tls: Bool { url.lowercased().hasPrefix("mqtts://") }

    /// Plain TCP to another machine: the password and every command cross the network readable.
    public var plainOffLoopback: Bool { !tls && !ListenReach.isLoopback(host) }

    /// The broker's host, brackets removed from an IPv6 literal.
    public var host: String { address?.host ?? "" }

    /// The port: the URL's, else 1883 (8883 for `mqtts://`).
    public var port: Int { address?.port ?? (tls ? 8883 : 1883) }

    /// The URL's host and port; nil when it has no host or a bad port (the config refuses both).
    private var address: URLAddress? { URLAddress(parsing: url).flatMap { $0.portIsValid ? $0 : nil } }

    /// `host:port` for log lines (never a credential: the URL holds none).
    public var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Printing the settings (a log line, a failed test's message, `dump`) never shows the password.
extension MQTTSettings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "MQTTSettings(url: \(url), user: \(user ?? "nil"), password: \(password == nil ? "nil" : Redaction.mask))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["url": url, "user": user as Any, "password": password == nil ? "nil" : Redaction.mask,
                                "topicPrefix": topicPrefix, "discoveryPrefix": discoveryPrefix as Any,
                                "clientID": clientID as Any, "caFile": caFile as Any, "guestMinutes": guestMinutes,
                                "allowPlain": allowPlain])
    }
}
