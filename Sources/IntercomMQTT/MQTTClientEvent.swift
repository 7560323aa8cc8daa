/// What the MQTT client reports to its owner, in order.
public enum MQTTClientEvent: Sendable, Equatable {
    /// The broker accepted us (CONNACK 0) and the subscriptions are sent. Messages without
    /// `retain` wait in the queue until `release()`, so the owner can publish its configs and
    /// states first.
    case connected
    /// The connection dropped; retrying with back-off.
    case lost(String)
    /// The broker could not be reached (DNS, TCP, TLS); retrying with back-off.
    case unreachable(String)
    /// Not connecting at all: the login or TLS could not be set up (`[mqtt] ca_file` unreadable…);
    /// retried every `MQTTClientOptions.maxBackOff`.
    case notConnecting(String)
    /// The TLS handshake failed (the broker's certificate refused…); nothing was sent. Retried
    /// every `MQTTClientOptions.maxBackOff`.
    case tlsFailed(String)
    /// The broker refused the login (CONNACK 4 or 5); retrying every `MQTTClientOptions.maxBackOff`.
    case refused(String)
    case message(MQTTMessage)
    /// Messages dropped from a full queue during an outage (reported once connected again).
    case dropped(Int)
}
