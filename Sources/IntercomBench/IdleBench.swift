import Foundation
import IntercomSimulator
import IntercomTestSupport

/// RSS, private memory and CPU of an idle softphone, ours beside linphonec and baresip, measured
/// in the same run; ours alone (one panel, no video, no MQTT) and with `[mqtt]` connected and the
/// panel's live stream configured.
enum IdleBench {
    struct Figure {
        var name: String
        var rssMB: Double
        var cpuPercent: Double
        var note: String = ""
        /// Private_Clean + Private_Dirty of smaps_rollup.
        var privateMB = Double.nan
        /// Shared objects mapped (distinct `.so` paths in /proc/PID/maps).
        var libraries = 0
        /// The mappings holding the most private memory: (file or [anon]/[heap], KB).
        var heaviest: [(name: String, privateKB: Int)] = []
    }

    static func measure(_ name: String, _ process: ChildProcess, settle: Double, window: Double) async -> Figure {
        try? await Task.sleep(nanoseconds: UInt64(settle * 1e9))
        let cpu0 = process.cpuSeconds
        let t0 = Date()
        try? await Task.sleep(nanoseconds: UInt64(window * 1e9))
        let cpu1 = process.cpuSeconds
        let elapsed = Date().timeIntervalSince(t0)
        var figure = Figure(name: name, rssMB: process.rssMB, cpuPercent: (cpu1 - cpu0) / elapsed * 100)
        figure.privateMB = ProcStat.privateKB(pid: process.pid) / 1024
        let mappings = privateByMapping(pid: process.pid)
        figure.libraries = mappings.keys.filter { $0.contains(".so") }.count
        figure.heaviest = mappings.sorted { $0.value > $1.value }.prefix(6).map { (($0.key as NSString).lastPathComponent, $0.value) }
        return figure
    }

    /// Private KB per mapped file (anonymous mappings under their bracketed name), from /proc/PID/smaps.
    static func privateByMapping(pid: Int32) -> [String: Int] {
        // Read to the end by hand: /proc files report size 0, and String(contentsOfFile:) stops short.
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps") else { return [:] }
        defer { try? handle.close() }
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        var totals: [String: Int] = [:]
        var current = "[anon]"
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                current = fields.count >= 6 ? fields[5...].joined(separator: " ") : "[anon]"
                totals[current, default: 0] += 0
            } else if fields.first == "Private_Clean:" || fields.first == "Private_Dirty:", fields.count > 1 {
                totals[current, default: 0] += Int(fields[1]) ?? 0
            }
        }
        return totals
    }

    static func run(intercom: String, work: String, window: Double) async throws -> [Figure] {
        var figures: [Figure] = []
        let home = "\(work)/idle"
        try FileManager.default.createDirectory(atPath: "\(home)/baresip", withIntermediateDirectories: true)
        let env = ["HOME": home, "PATH": "/usr/bin:/bin"]

        // One panel (its alarm stream followed), no video, no MQTT.
        let panel = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
        _ = try panel.start()
        defer { panel.stop() }
        let daemonEnv = env.merging(["XDG_RUNTIME_DIR": "\(home)/run"]) { $1 }
        try FileManager.default.createDirectory(atPath: "\(home)/run", withIntermediateDirectories: true)
        let plain = BenchConfig.sip() + BenchConfig.panel("bench", url: panel.baseURL, "rtsp = off", "rtsp_sub = off")
        try plain.write(toFile: "\(home)/intercom.ini", atomically: true, encoding: .utf8)
        chmod("\(home)/intercom.ini", 0o600)
        let ours = try ChildProcess(intercom, ["daemon", "--config", "\(home)/intercom.ini"], environment: daemonEnv)
        figures.append(await measure("intercom daemon, one panel", ours, settle: 3, window: window))
        ours.stop()

        // The same with `[mqtt]` connected to a mosquitto on loopback and the panel's live stream
        // configured (an RTSP server on loopback): no viewer, so nothing is decoded.
        let broker = try await Mosquitto(noDelay: true)
        try await broker.start()
        let camera = try await RTSPTestServer.start(auth: .digest, user: "admin", password: "admin", width: 640, height: 480, fps: 25)
        let full = BenchConfig.sip() + BenchConfig.panel("bench", url: panel.baseURL, "rtsp = \(camera.url())")
            + "[mqtt]\nurl = \(broker.url)\nclient_id = intercom-bench-idle\n"
        try full.write(toFile: "\(home)/intercom-mqtt.ini", atomically: true, encoding: .utf8)
        chmod("\(home)/intercom-mqtt.ini", 0o600)
        let withMQTT = try ChildProcess(intercom, ["daemon", "--config", "\(home)/intercom-mqtt.ini"], environment: daemonEnv)
        figures.append(await measure("intercom daemon, + MQTT + live stream configured", withMQTT, settle: 3, window: window))
        withMQTT.stop()
        await camera.stop()
        await broker.stop()

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/linphonec") {
            try """
            [sip]
            sip_port=-1
            sip_tcp_port=0
            bind_address=127.0.0.1
            contact=sip:idle@127.0.0.1
            use_ipv6=0
            ipv6_migration_done=1
            [storage]
            uri=\(home)/linphone.db
            [misc]
            user_certificates_path=\(home)
            """.write(toFile: "\(home)/linphonerc", atomically: true, encoding: .utf8)
            let linphonec = try ChildProcess("/usr/bin/linphonec", ["-c", "\(home)/linphonerc", "-d", "0"], environment: env)
            linphonec.write("soundcard use files")
            figures.append(await measure("linphonec 5.1", linphonec, settle: 3, window: window))
            linphonec.write("quit")
            linphonec.stop()
        } else {
            figures.append(Figure(name: "linphonec", rssMB: .nan, cpuPercent: .nan, note: "not installed (apt install linphone-cli)"))
        }

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/baresip") {
            try """
            sip_listen 127.0.0.1:0
            audio_player aubridge,nil
            audio_source aubridge,nil
            audio_alert aubridge,nil
            module_path /usr/lib/baresip/modules
            module stdio.so
            module g711.so
            module aubridge.so
            module_app account.so
            module_app menu.so
            poll_method epoll
            """.write(toFile: "\(home)/baresip/config", atomically: true, encoding: .utf8)
            try "<sip:idle@127.0.0.1>;regint=0\n".write(toFile: "\(home)/baresip/accounts", atomically: true, encoding: .utf8)
            try "".write(toFile: "\(home)/baresip/contacts", atomically: true, encoding: .utf8)
            let baresip = try ChildProcess("/usr/bin/baresip", ["-f", "\(home)/baresip", "-4"], environment: env)
            figures.append(await measure("baresip 1.0", baresip, settle: 3, window: window))
            baresip.stop()
        } else {
            figures.append(Figure(name: "baresip", rssMB: .nan, cpuPercent: .nan, note: "not installed (apt install baresip-core)"))
        }
        return figures
    }
}
