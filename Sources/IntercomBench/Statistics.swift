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
