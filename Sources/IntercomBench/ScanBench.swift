import Foundation

/// Issue 7: a SIP scan — 10 000 INVITEs from a caller matching no panel, at 200 a second (sipp,
/// UDP) — against `intercom daemon`: every one must get 403 and no event, and the daemon's memory
/// must stay flat. RSS is read after a 1 000-call warm-up and after the scan.
enum ScanBench {
    struct Result {
        var calls = 0
        var rate = 0
        var answered403 = 0
        var failed = 0
        var seconds: Double = .nan
        var rssBefore: Double = .nan
        var rssAfter: Double = .nan
        var cpuPercent: Double = .nan
        var callEvents = 0
    }

    static func run(intercom: String, work: String, calls: Int = 10_000, rate: Int = 200) async throws -> Result {
        var result = Result(calls: calls, rate: rate)
        let home = "\(work)/scan-home"
        let bench = try await BenchDaemon.start(intercom: intercom, home: home, config: """
            [sip]
            listen = udp:127.0.0.1:0
            unknown_callers = reject
            [panel bench]
            url = http://127.0.0.1:9
            match = sip:100001@
            [daemon]
            socket = \(home)/control.sock
            """)
        let daemon = bench.process
        defer { daemon.stop() }
        let scenario = "\(work)/scan.xml"
        try xml.write(toFile: scenario, atomically: true, encoding: .utf8)
        _ = try sipp(scenario: scenario, port: bench.port, calls: 1000, rate: rate)
        try await Task.sleep(nanoseconds: 1_000_000_000)
        result.rssBefore = daemon.rssMB
        let cpu0 = ProcStat.cpuSeconds(pid: daemon.pid)
        let t0 = Date()
        let screen = try sipp(scenario: scenario, port: bench.port, calls: calls, rate: rate)
        result.seconds = Date().timeIntervalSince(t0)
        result.cpuPercent = (ProcStat.cpuSeconds(pid: daemon.pid) - cpu0) / result.seconds * 100
        try await Task.sleep(nanoseconds: 1_000_000_000)
        result.rssAfter = daemon.rssMB
        result.answered403 = count("Successful call", in: screen)
        result.failed = count("Failed call", in: screen)
        result.callEvents = daemon.allLines.filter { $0.contains("\"call_incoming\"") || $0.contains("\"call_ended\"") }.count
        return result
    }

    /// sipp's final screen (its stdout) after `calls` calls at `rate` a second.
    private static func sipp(scenario: String, port: String, calls: Int, rate: Int) throws -> String {
        try Spawn.run("/usr/bin/sipp", ["-sf", scenario, "127.0.0.1:\(port)", "-s", "door", "-i", "127.0.0.1", "-p", "0",
                                        "-m", String(calls), "-r", String(rate), "-timeout", "300s", "-nostdin"])
    }

    /// The cumulative column of a line of sipp's closing statistics, e.g. "Successful call | 0 | 10000".
    private static func count(_ label: String, in screen: String) -> Int {
        guard let line = screen.split(separator: "\n").last(where: { $0.contains(label) }) else { return -1 }
        return Int(line.split(separator: "|").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
    }

    /// A scanner's INVITE (a bare audio offer from "scanner"), which must be refused with 403, then ACKed.
    private static let xml = """
        <?xml version="1.0" encoding="ISO-8859-1" ?>
        <!DOCTYPE scenario SYSTEM "sipp.dtd">
        <scenario name="scan">
          <send retrans="500">
            <![CDATA[

              INVITE sip:[service]@[remote_ip]:[remote_port] SIP/2.0
              Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=z9hG4bK-[pid]-[call_number]-inv
              From: <sip:scanner@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
              To: <sip:[service]@[remote_ip]:[remote_port]>
              Call-ID: [call_id]
              CSeq: 1 INVITE
              Contact: <sip:scanner@[local_ip]:[local_port]>
              Max-Forwards: 70
              User-Agent: friendly-scanner
              Content-Type: application/sdp
              Content-Length: [len]

              v=0
              o=scanner 1 1 IN IP[local_ip_type] [local_ip]
              s=-
              c=IN IP[media_ip_type] [media_ip]
              t=0 0
              m=audio [media_port] RTP/AVP 0 8

            ]]>
          </send>
          <recv response="100" optional="true"/>
          <recv response="180" optional="true"/>
          <recv response="403"/>
          <send>
            <![CDATA[

              ACK sip:[service]@[remote_ip]:[remote_port] SIP/2.0
              Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=z9hG4bK-[pid]-[call_number]-inv
              From: <sip:scanner@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
              To: <sip:[service]@[remote_ip]:[remote_port]>[peer_tag_param]
              Call-ID: [call_id]
              CSeq: 1 ACK
              Max-Forwards: 70
              Content-Length: 0

            ]]>
          </send>
        </scenario>

        """
}
