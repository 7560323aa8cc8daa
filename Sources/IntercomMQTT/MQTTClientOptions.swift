/// How the client connects. The password is kept only here and handed to libmosquitto; it is
/// never part of a description, event or log line.
public struct MQTTClientOptions: Sendable {
    public var host: String
    public var port: Int
    public var tls: Bool
    public var caFile: String?
    public var user: String?
    public var password: String?
    public var clientID: String
    /// Seconds; the broker drops us (and sends the will) after 1.5 × this without a packet.
    public var keepAlive: Int32 = 30
    /// The last will: published by the broker when we vanish without a DISCONNECT.
    public var will: MQTTMessage?
    /// Subscribed (QoS 1) on every connect: a clean session forgets them.
    public var subscriptions: [String] = []
    /// Messages without `retain` kept while the broker is away; the oldest go first.
    public var queueLimit = 1000
    /// Reconnect back-off: 1 s doubling to this many seconds.
    public var maxBackOff: Double = 30

    public init(host: String, port: Int, tls: Bool = false, caFile: String? = nil, user: String? = nil,
                password: String? = nil, clientID: String) {
        self.host = host
        self.port = port
        self.tls = tls
        self.caFile = caFile
        self.user = user
        self.password = password
        self.clientID = clientID
    }
}

/// Printed (a failed test's message, `dump`) without the password.
extension MQTTClientOptions: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "MQTTClientOptions(\(host):\(port), tls: \(tls), user: \(user ?? "nil"), password: \(password == nil ? "nil" : "***"), clientID: \(clientID))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["host": host, "port": port, "tls": tls, "user": user as Any,
                                "password": password == nil ? "nil" : "***", "clientID": clientID])
    }
}
