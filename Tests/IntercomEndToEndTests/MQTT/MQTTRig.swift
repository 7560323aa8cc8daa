import Foundation
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport

/// What the MQTT tests share: a broker, the daemon's config with `[mqtt]`, a simulated panel
/// (`intercom simulate-panel`) and the topics read back from the published discovery configs.
enum MQTTRig {
    /// A daemon config with panel `entrance` at `http://127.0.0.1:<httpPort>` (the simulated
    /// panel's user and password; `entrance` lines added to its section), more `panels` at
    /// unreachable URLs, and `[mqtt]` on `broker`.
    static func config(broker: Mosquitto, httpPort: UInt16 = 9, panels: [String] = [], mqtt: String = "",
                       entrance: String = "") -> String {
        var text = DaemonProcess.simulatedPanelConfig(httpPort: httpPort, entrance: entrance) + "\n"
        for panel in panels {
            text += "\n[panel \(panel)]\nurl = http://127.0.0.2:9\n"
        }
        text += "\n[mqtt]\nurl = \(broker.url)\nclient_id = intercom-test-\(UUID().uuidString.prefix(8))\n" + mqtt
        return text
    }

    /// Waits until the daemon's log says it is connected to the broker `count` times in all.
    static func waitConnected(_ daemon: DaemonProcess, count: Int = 1, timeout: Duration = .seconds(15)) async throws {
        let connected = try await TestPatience.eventually(within: timeout) {
            if daemon.process.stderr.components(separatedBy: "mqtt: connected to").count - 1 >= count { return true }
            guard daemon.process.isRunning else { throw HarnessError("the daemon exited" + HarnessError.tail(daemon.log)) }
            return false
        }
        if !connected { throw HarnessError.timeout("mqtt: connected (\(count))", after: timeout, log: daemon.log) }
    }

    /// The daemon's topic root (`intercom/<host>`), read from the retained door config of `entrance`.
    static func root(_ subscriber: MQTTSubscriber) async throws -> String {
        let config = try await subscriber.wait(for: "homeassistant/button/\(node)/entrance_door_main/config")
        guard let status = config.json?["availability_topic"] as? String, status.hasSuffix("/status") else {
            throw HarnessError("no availability_topic in \(config)")
        }
        return String(status.dropLast("/status".count))
    }

    /// `intercom_<host>`, as the daemon names its discovery node.
    static var node: String {
        var buffer = [CChar](repeating: 0, count: 256)
        _ = gethostname(&buffer, 255)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let host = name.split(separator: ".").first.map(String.init) ?? "localhost"
        return "intercom_" + String(host.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }

    /// `intercom simulate-panel` on `httpPort`; with `call`, it rings that URI at each SIGUSR1 and
    /// gives up after `ringFor` seconds.
    static func panel(httpPort: UInt16, call: String? = nil, ringFor: Int = 3, in directory: TestDirectory) async throws -> SimulatorProcess {
        var arguments = ["--http-port", String(httpPort)]
        if let call { arguments += ["--call", call, "--ring-on-signal", "--ring-for", String(ringFor)] }
        return try await SimulatorProcess.panel(arguments, in: directory)
    }
}
