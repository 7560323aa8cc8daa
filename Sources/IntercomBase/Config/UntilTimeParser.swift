import Foundation

/// When something ends, as a person types it at a prompt: a duration from now (`30m`, `2h`, `1d`,
/// `1w`), a time of day (`20:00`: today, or tomorrow once it has passed), `today 20:00`,
/// `tomorrow 08:00`, or an absolute time as `guest_until` takes it (`GuestTimeParser`). One parser
/// for `ctl guest`, `share --until` and `settings auto_open=` (issue 38): the config file itself
/// keeps to absolute times, which mean the same whenever the file is read.
public enum UntilTimeParser {
    /// The forms, for error messages and help.
    public static let forms = "a duration (30m, 2h, 1d), a time of day (20:00, tomorrow 08:00) or 'YYYY-MM-DD HH:MM'"

    /// `timeZone` places a time of day and the local absolute form.
    public static func parse(_ text: String, now: Date, timeZone: TimeZone = .current) throws(ConfigValueError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [Character: Double] = ["m": 60, "h": 3600, "d": 86400, "w": 604800]
        if let unit = trimmed.last.flatMap({ units[$0] }), let count = Double(trimmed.dropLast().drop(while: { $0 == "+" })),
           count > 0, count.isFinite {
            return now.addingTimeInterval(count * unit)
        }
        let words = trimmed.lowercased().split(separator: " ", omittingEmptySubsequences: true)
        if let clock = words.last.flatMap({ timeOfDay(String($0)) }) {
            switch words.count == 2 ? words.first.map(String.init) : words.count == 1 ? "" : nil {
            case ""?: return try day(clock, now: now, timeZone: timeZone, daysAhead: 0, rollOver: true)
            case "today"?: return try day(clock, now: now, timeZone: timeZone, daysAhead: 0, rollOver: false)
            case "tomorrow"?: return try day(clock, now: now, timeZone: timeZone, daysAhead: 1, rollOver: false)
            default: break
            }
        }
        do {
            return try GuestTimeParser.parse(trimmed, timeZone: timeZone)
        } catch {
            throw ConfigValueError("'\(text)' is not a time", fix: "write \(forms)")
        }
    }

    /// `HH:MM` (or `H:MM`) as hour and minute; nil for anything else.
    private static func timeOfDay(_ word: String) -> (hour: Int, minute: Int)? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return (hour, minute)
    }

    /// `clock` on the day `daysAhead` after today in `timeZone`; a bare time already past rolls
    /// over to tomorrow (at 21:00, `20:00` means tomorrow's).
    private static func day(_ clock: (hour: Int, minute: Int), now: Date, timeZone: TimeZone, daysAhead: Int,
                            rollOver: Bool) throws(ConfigValueError) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var components = calendar.dateComponents([.year, .month, .day], from: now)
        components.hour = clock.hour
        components.minute = clock.minute
        guard let today = calendar.date(from: components),
              let date = calendar.date(byAdding: .day, value: daysAhead + (rollOver && today <= now ? 1 : 0), to: today) else {
            throw ConfigValueError("\(clock.hour):\(clock.minute) has no date here", fix: "write 'YYYY-MM-DD HH:MM'")
        }
        return date
    }
}
