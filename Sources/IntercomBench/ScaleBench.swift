import Foundation
import IntercomImaging
import IntercomSimulator
import IntercomTestSupport

/// Issue 16: the kiosk and the daemon as the number of panels grows. The panels are one-thread
/// stub servers in the bench process (`LoopbackHTTPStub`: a real 640×480 JPEG for `images_cgi`, a
/// never-ending `alarmchangestate_cgi`), so the bench's own threads stay out of the figures.
/// The kiosk polls every panel's still at 1 fps and follows its alarm stream; the daemon follows
/// the alarm streams. Per count: start, settle, CPU over the window, then RSS, USS and threads.
enum ScaleBench {
    struct Figures {
        var cpu: Double = .nan
        var rssMB: Double = .nan
        var ussMB: Double = .nan
        var threads = 0
        var snapshotsPerSecond: Double = .nan
    }

    struct Point {
        var panels: Int
        var kiosk = Figures()
        var daemon = Figures()
    }

    static let defaultCounts = [1, 8, 32, 64, 128]

    static func run(intercom: String, work: String, counts: [Int], settle: Double, window: Double) async throws -> [Point] {
        let jpeg = try [UInt8](JPEG.encode(SyntheticFrame.render(frame: 0, label: "scale", time: "12:00"), quality: 80))
        var points: [Point] = []
        for count in counts {
            let stub = try LoopbackHTTPStub(servers: count, snapshot: jpeg)
            defer { stub.stop() }
            var point = Point(panels: count)
            let panels = (0..<count).map { BenchConfig.panel("p\($0)", url: stub.baseURL($0), "rtsp = off") }
                .joined(separator: "\n")

            let kioskHome = "\(work)/scale-kiosk-\(count)"
            let port = try TUIBench.freeUDPPort()
            let config = try VideoBench.writeConfig(BenchConfig.sip(port: port) + "\n" + panels, home: kioskHome)
            let pane = try VideoBench.pane(
                "\(intercom) tui --kiosk --config \(config) --graphics symbols --no-bell --no-notify --no-ring",
                cols: 200, rows: 60, home: kioskHome)
            try? await Task.sleep(nanoseconds: UInt64(settle * 1e9))
            let served = stub.snapshotsServed
            point.kiosk = await measure(pid: pane.pid, window: window)
            point.kiosk.snapshotsPerSecond = Double(stub.snapshotsServed - served) / window
            pane.kill()

            let daemon = try await BenchDaemon.start(
                intercom: intercom, home: "\(work)/scale-daemon-\(count)",
                config: BenchConfig.sip() + "\n" + panels)
            try? await Task.sleep(nanoseconds: UInt64(settle * 1e9))
            point.daemon = await measure(pid: daemon.process.pid, window: window)
            daemon.process.stop()
            points.append(point)
        }
        return points
    }

    private static func measure(pid: Int32, window: Double) async -> Figures {
        var figures = Figures()
        figures.cpu = await ProcStat.cpuPercent(pid: pid, window: window)
        figures.rssMB = ProcStat.rssMB(pid: pid)
        figures.ussMB = ProcStat.privateKB(pid: pid) / 1024
        figures.threads = ProcStat.threads(pid: pid)
        return figures
    }

    /// What one more panel costs: the slope between the smallest and the largest count.
    static func perPanel(_ points: [Point], _ value: (Point) -> Double) -> Double {
        guard let first = points.first, let last = points.last, last.panels > first.panels else { return .nan }
        return (value(last) - value(first)) / Double(last.panels - first.panels)
    }
}
