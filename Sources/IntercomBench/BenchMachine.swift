import Foundation

/// What a section says of the machine it ran on, read from /proc: the same words in every section.
enum BenchMachine {
    /// The CPU's model name, "?" when /proc/cpuinfo does not say.
    static func cpuModel() -> String {
        ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "").split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "?"
    }

    /// The 1, 5 and 15 minute load averages, as /proc/loadavg has them.
    static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
            .split(separator: " ").prefix(3).joined(separator: " ")
    }
}
