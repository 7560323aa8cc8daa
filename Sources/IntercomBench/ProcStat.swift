import Foundation

/// CPU time and resident memory of any process, from /proc.
enum ProcStat {
    /// user+system CPU seconds so far.
    static func cpuSeconds(pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command name: state is field 0, utime is 11, stime is 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// CPU seconds its threads have run so far, to the nanosecond (the first field of each
    /// /proc/PID/task/TID/schedstat): a daemon idling at 0.1 % runs a few 10 ms ticks a minute, too few
    /// for `cpuSeconds` to tell two of them apart. A thread that ended is not counted.
    static func cpuSecondsFine(pid: Int32) -> Double {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { total, task in
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
            return total + (Double(stat.split(separator: " ").first ?? "") ?? 0) / 1e9
        }
    }

    /// Resident set size in MB.
    static func rssMB(pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb / 1024
    }

    /// Memory only this process holds (Private_Clean + Private_Dirty of smaps_rollup), in KB:
    /// unlike RSS it leaves out shared library pages, so it shows what the process itself grows.
    static func privateKB(pid: Int32) -> Double {
        guard let rollup = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return .nan }
        var total = 0.0
        for line in rollup.split(separator: "\n") where line.hasPrefix("Private_Clean:") || line.hasPrefix("Private_Dirty:") {
            total += Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return total
    }

    /// Threads of the process (entries of /proc/PID/task).
    static func threads(pid: Int32) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).count
    }

    /// CPU of `pid` as a percentage of one core over `window` seconds from now.
    static func cpuPercent(pid: Int32, window: Double) async -> Double {
        let cpu0 = cpuSeconds(pid: pid)
        let t0 = Date()
        try? await Task.sleep(nanoseconds: UInt64(window * 1e9))
        return (cpuSeconds(pid: pid) - cpu0) / Date().timeIntervalSince(t0) * 100
    }
}
