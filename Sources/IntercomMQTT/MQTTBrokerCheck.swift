import Foundation
import IntercomBase

/// `intercom doctor`'s question to the broker of `[mqtt]`: does it take our connection and login,
/// as the daemon would make them (URL, TLS, CA, user, password)? One connect with a client id of
/// its own (the daemon's would throw a running daemon off the broker), then a clean disconnect.
public enum MQTTBrokerCheck {
    public enum Outcome: Sendable, Equatable {
        case accepted
        /// CONNACK refused the login (bad user or password, not authorised).
        case refused(String)
        /// DNS, TCP or TLS failed, or the login or TLS could not even be set up.
        case unreachable(String)
        /// Nothing within the timeout.
        case noAnswer
    }

    public static func run(_ settings: MQTTSettings, timeout: Duration = .seconds(5)) async -> Outcome {
        let options = MQTTClientOptions(host: settings.host, port: settings.port, tls: settings.tls, caFile: settings.caFile,
                                        user: settings.user, password: settings.password,
                                        clientID: "intercom-doctor-\(getpid())")
        let client = MQTTClient(options: options)
        client.start()
        let events = client.events
        let first = Task { () -> Outcome in
            for await event in events {
                switch event {
                case .connected: return .accepted
                case .refused(let why): return .refused(why)
                case .unreachable(let why), .lost(let why): return .unreachable(why)
                case .tlsFailed(let why): return .unreachable("TLS: \(why)")
                case .notConnecting(let why): return .unreachable(why)
                case .message, .dropped: continue
                }
            }
            return .noAnswer
        }
        let deadline = Task {
            try? await Task.sleep(for: timeout)
            first.cancel()
        }
        // At the deadline the wait is cancelled, which ends its `for await`: no answer in time.
        let outcome = await first.value
        deadline.cancel()
        await client.stop()
        return outcome
    }
}
