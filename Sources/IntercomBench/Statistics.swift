import Foundation

/// Medians and ranges of millisecond samples, as BENCHMARKS.md prints them.
struct Samples {
    var values: [Double] = []
    mutating func add(_ value: Double) { values.append(value) }
    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    var min: Double { values.min() ?? .nan }
    var max: Double { values.max() ?? .nan }
    func format(_ unit: String = "ms", digits: Int = 1) -> String {
        let f = "%.\(digits)f"
        return "\(String(format: f, median)) \(unit) (min \(String(format: f, min)), max \(String(format: f, max)), n=\(values.count))"
    }
}

extension Samples {
    /// The nearest-rank percentile (`p` from 0 to 100).
    func percentile(_ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}
