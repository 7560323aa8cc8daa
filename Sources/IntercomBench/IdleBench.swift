import Foundation

/// RSS and CPU of an idle softphone, ours beside linphonec and baresip, measured in the same run.
enum IdleBench {
    struct Figure {
        var name: String
        var rssMB: Double
        var cpuPercent: Double
        var note: String = ""
    }

    static func measure(_ name: String, _ process: ChildProcess, settle: Double, window: Double) async -> Figure {
        try? await Task.sleep(nanoseconds: UInt64(settle * 1e9))
        let cpu0 = process.cpuSeconds
        let t0 = Date()
        try? await Task.sleep(nanoseconds: UInt64(window * 1e9))
        let cpu1 = process.cpuSeconds
        let elapsed = Date().timeIntervalSince(t0)
        return Figure(name: name, rssMB: process.rssMB, cpuPercent: (cpu1 - cpu0) / elapsed * 100)
    }

    static func run(intercom: String, work: String, window: Double) async throws -> [Figure] {
        var figures: [Figure] = []
        let home = "\(work)/idle"
        try FileManager.default.createDirectory(atPath: "\(home)/baresip", withIntermediateDirectories: true)
        let env = ["HOME": home, "PATH": "/usr/bin:/bin"]

        try "[sip]\nlisten = udp:127.0.0.1:0\n".write(toFile: "\(home)/intercom.ini", atomically: true, encoding: .utf8)
        let ours = try ChildProcess(intercom, ["daemon", "--config", "\(home)/intercom.ini"], environment: env)
        figures.append(await measure("intercom daemon", ours, settle: 3, window: window))
        ours.stop()

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
