import Foundation
import IntercomBase
import IntercomMQTT
import IntercomSimulator
import IntercomTestSupport

/// Issue 14: `intercom daemon` with `[mqtt]` against a real mosquitto on loopback. The bench is
/// the other MQTT client (IntercomMQTT's own, on its own thread) and the panel's HTTP side
/// (the simulated panel's server in this process).
enum MQTTBench {
    struct Result {
        /// Event created in the daemon (its `time`, ms resolution) → the JSON on `ROOT/events` here.
        var eventLatency = Samples()
        /// PRESS published here → the simulated panel counted `intercom_cgi?action=maindoor`.
        var doorLatency = Samples()
        var doorsSeen = 0
        var idleCPU = Double.nan
        var idleCPUWithout = Double.nan
        var idleRSS = Double.nan
        var brokerVersion = ""
        var date = ""
    }

    /// `noDelay`: the broker's `set_tcp_nodelay`; `idle`: measure the idle CPU too.
    static func run(intercom: String, work: String, noDelay: Bool, idle: Bool, events: Int = 50, presses: Int = 30,
                    window: Double = 30) async throws -> Result {
        var result = Result()
        result.date = RFC3339.string(Date())
        let broker = try await Mosquitto(noDelay: noDelay)
        try await broker.start()
        defer { Task { await broker.stop() } }
        result.brokerVersion = brokerVersion()
        let panel = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
        _ = try panel.start()
        defer { panel.stop() }

        let home = "\(work)/mqtt"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let settings = MQTTSettings(url: broker.url, clientID: "intercom-bench-daemon")
        let config = """
        [sip]
        listen = udp:127.0.0.1:0

        [panel bench]
        url = \(panel.baseURL)
        user = admin
        password = admin

        [mqtt]
        url = \(broker.url)
        client_id = intercom-bench-daemon
        """
        try config.write(toFile: "\(home)/config.ini", atomically: true, encoding: .utf8)
        chmod("\(home)/config.ini", 0o600)
        let daemon = try ChildProcess(intercom, ["daemon", "--events", "json", "--config", "\(home)/config.ini"],
                                      environment: ["HOME": home, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": "\(home)/run"])
        defer { daemon.stop() }
        guard await daemon.waitLine(containing: "\"started\"", timeout: 20) != nil else { throw BenchError("the daemon did not start") }

        let topics = MQTTTopics(settings: settings, host: MQTTTopics.machineName())
        var options = MQTTClientOptions(host: "127.0.0.1", port: Int(broker.port), clientID: "intercom-bench-client")
        options.subscriptions = [topics.events, topics.status]
        let client = MQTTClient(options: options)
        let arrivals = Arrivals()
        client.start()
        let reader = Task {
            for await event in client.events {
                if case .message(let message) = event { arrivals.add(message, at: Date()) }
                if case .connected = event { client.release() }
            }
        }
        defer { reader.cancel() }
        // Commands from a second client, as a switch in Home Assistant or a script would send them: the
        // subscriber's connection then carries only the messages measured.
        let commander = MQTTClient(options: MQTTClientOptions(host: "127.0.0.1", port: Int(broker.port), clientID: "intercom-bench-commander"))
        commander.start()
        let commanderReady = Task {
            for await event in commander.events { if case .connected = event { commander.release(); return } }
        }
        _ = await commanderReady.value
        // The daemon is connected once its retained `online` reaches us.
        guard await arrivals.wait(timeout: 20, { $0.topic == topics.status && $0.text == "online" }) != nil else {
            throw BenchError("the daemon never said online on \(topics.status)")
        }

        // Events: do-not-disturb switched over MQTT, each switch a `panel_policy` event.
        let dnd = topics.panel("bench") + "/dnd/set"
        for i in 0..<(events + 3) {
            let from = arrivals.count
            commander.publish(MQTTMessage(topic: dnd, text: i % 2 == 0 ? "ON" : "OFF"))
            guard let hit = await arrivals.wait(after: from, timeout: 5, {
                $0.message.topic == topics.events && $0.message.text.contains("\"panel_policy\"")
            }) else { throw BenchError("no panel_policy event on \(topics.events)") }
            if i >= 3, let json = JSONValue.parse(hit.message.text), let time = json["time"]?.stringValue,
               let created = try? GuestTimeParser.parse(time, timeZone: .current) {
                result.eventLatency.add(hit.time.timeIntervalSince(created) * 1000)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        commander.publish(MQTTMessage(topic: dnd, text: "OFF"))

        // Door: PRESS → the panel's CGI request.
        let door = topics.panel("bench") + "/door/main/open"
        for i in 0..<(presses + 3) {
            let before = panel.requestCount("intercom_cgi?action=maindoor")
            let start = ContinuousClock.now
            commander.publish(MQTTMessage(topic: door, text: "PRESS"))
            while panel.requestCount("intercom_cgi?action=maindoor") == before {
                if ContinuousClock.now - start > .seconds(5) { throw BenchError("the panel saw no door request") }
                usleep(200)
            }
            let elapsed = ContinuousClock.now - start
            if i >= 3 { result.doorLatency.add(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000) }
            try await Task.sleep(for: .milliseconds(300))
        }
        result.doorsSeen = panel.requestCount("intercom_cgi?action=maindoor")
        await commander.stop()
        guard idle else {
            daemon.stop()
            await client.stop()
            return result
        }

        // Idle: connected, nothing happening.
        let idle = await IdleBench.measure("intercom daemon, [mqtt]", daemon, settle: 5, window: window)
        result.idleCPU = idle.cpuPercent
        result.idleRSS = idle.rssMB
        daemon.stop()
        await client.stop()

        // The same daemon without [mqtt], for comparison, in the same run.
        try config.replacingOccurrences(of: "[mqtt]\nurl = \(broker.url)\nclient_id = intercom-bench-daemon", with: "")
            .write(toFile: "\(home)/plain.ini", atomically: true, encoding: .utf8)
        chmod("\(home)/plain.ini", 0o600)
        let plain = try ChildProcess(intercom, ["daemon", "--config", "\(home)/plain.ini"],
                                     environment: ["HOME": home, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": "\(home)/run"])
        result.idleCPUWithout = await IdleBench.measure("intercom daemon", plain, settle: 5, window: window).cpuPercent
        plain.stop()
        return result
    }

    static func brokerVersion() -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        p.arguments = ["-h"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        guard (try? p.run()) != nil else { return "mosquitto" }
        p.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").first.map(String.init) ?? "mosquitto"
    }
}

/// Messages as the bench's client received them, with when.
final class Arrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(message: MQTTMessage, time: Date)] = []

    func add(_ message: MQTTMessage, at time: Date) { lock.withLock { items.append((message, time)) } }
    var count: Int { lock.withLock { items.count } }

    func wait(timeout: Double, _ predicate: (MQTTMessage) -> Bool) async -> MQTTMessage? {
        await wait(after: 0, timeout: timeout) { predicate($0.message) }?.message
    }

    func wait(after from: Int, timeout: Double, _ predicate: ((message: MQTTMessage, time: Date)) -> Bool) async
        -> (message: MQTTMessage, time: Date)? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = lock.withLock { items.dropFirst(from).first(where: predicate) }
            if let found { return found }
            try? await Task.sleep(nanoseconds: 200_000)
        }
        return nil
    }
}
