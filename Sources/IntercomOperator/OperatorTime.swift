import Foundation

/// SmartYard dates: `Y-m-d H:i:s` in the operator's local time, with no zone in them. The operator
/// names its zone in `ext/options` (`OperatorClient.timeZone`; Moscow when it does not), and a log
/// entry may name its own (`timezone`).
public enum OperatorTime {
    public static func parse(_ text: String, timeZone: TimeZone = .current) -> Date? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == ":" || $0 == "T" }).map { Int($0) }
        guard parts.count == 6 || parts.count == 5, parts.allSatisfy({ $0 != nil }) else { return nil }
        let n = parts.compactMap { $0 }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: n[0], month: n[1], day: n[2], hour: n[3], minute: n[4],
                                        second: n.count == 6 ? n[5] : 0)
        guard (1...12).contains(n[1]), (1...31).contains(n[2]), (0...23).contains(n[3]), (0...59).contains(n[4])
        else { return nil }
        return calendar.date(from: components)
    }

    public static func format(_ date: Date, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1,
                      c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// `YYYY-MM-DD` of `date` (plog's `day`).
    public static func day(_ date: Date, timeZone: TimeZone = .current) -> String {
        String(format(date, timeZone: timeZone).prefix(10))
    }

    /// A time that switches a setting off (the server treats any past date so).
    public static let past = "1970-01-01 00:00:00"
}
