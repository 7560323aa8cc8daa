import Foundation
import IntercomBase

/// Dates as the API writes them: "Y-m-d H:i:s" in PHP's default zone (`date()`, `strtotime()`).
struct OperatorClock: Sendable {
    let timeZone: TimeZone

    private func formatter(_ format: String) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.dateFormat = format
        return f
    }

    func dateTime(_ date: Date) -> String { formatter("yyyy-MM-dd HH:mm:ss").string(from: date) }
    func day(_ date: Date) -> String { formatter("yyyy-MM-dd").string(from: date) }
    func time(_ date: Date) -> String { formatter("HH:mm:ss").string(from: date) }

    /// `strtotime('3001-01-01')`: an access given without `expire`.
    static let forever: TimeInterval = 32_535_216_000

    /// A "Y-m-d H:i:s" (or "Y-m-d") text read as operator-local time.
    func parse(_ text: String) -> Date? {
        formatter("yyyy-MM-dd HH:mm:ss").date(from: text) ?? formatter("yyyy-MM-dd").date(from: text)
    }
}
