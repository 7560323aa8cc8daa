import Foundation

/// Parses `guest_until`: RFC 3339 (`2026-11-29T18:00:00+03:00`, `...Z`) or
/// `YYYY-MM-DD HH:MM` in local time. Hand-written rather than
/// ISO8601DateFormatter so the accepted forms are exactly the documented ones
/// on every platform, and impossible dates (Feb 30) are refused, not rolled over.
public enum GuestTimeParser {
    /// `timeZone` is read only for the local form: an RFC 3339 time names its own offset.
    public static func parse(_ text: String, timeZone: @autoclosure () -> TimeZone) throws(ConfigValueError) -> Date {
        let characters = Array(text.trimmingCharacters(in: .whitespaces))
        var scanner = CharacterCursor(characters: characters)
        let failure = ConfigValueError(
            "'\(text)' is not a time",
            fix: "write RFC 3339 like 2026-11-29T18:00:00+03:00, or local 'YYYY-MM-DD HH:MM'")

        guard let year = scanner.digits(4), scanner.take("-"),
              let month = scanner.digits(2), scanner.take("-"),
              let day = scanner.digits(2) else { throw failure }
        guard let separator = scanner.next(), "Tt ".contains(separator),
              let hour = scanner.digits(2), scanner.take(":"),
              let minute = scanner.digits(2) else { throw failure }

        var components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: 0)
        var fraction = 0.0

        if scanner.atEnd {
            // Local form: a space, no seconds, no offset. `T` without an offset
            // would be a half-RFC-3339 string whose zone the user did not state.
            guard separator == " " else { throw failure }
        } else {
            let offset: Int
            guard scanner.take(":"), let second = scanner.digits(2) else { throw failure }
            components.second = second
            if scanner.take(".") {
                var digits = ""
                while let character = scanner.peek(), character.isASCII, character.isNumber {
                    digits.append(character)
                    _ = scanner.next()
                }
                guard !digits.isEmpty, let value = Double("0." + digits) else { throw failure }
                fraction = value
            }
            guard let designator = scanner.next() else { throw failure }
            switch designator {
            case "Z", "z":
                offset = 0
            case "+", "-":
                guard let offsetHours = scanner.digits(2), scanner.take(":"),
                      let offsetMinutes = scanner.digits(2),
                      offsetHours < 24, offsetMinutes < 60 else { throw failure }
                offset = (designator == "-" ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
            default:
                throw failure
            }
            guard scanner.atEnd, let utc = utcSeconds(year: year, month: month, day: day, hour: hour, minute: minute,
                                                      second: components.second ?? 0) else { throw failure }
            return Date(timeIntervalSince1970: TimeInterval(utc - offset) + fraction)
        }

        let zone = timeZone()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        components.calendar = calendar
        components.timeZone = zone
        guard (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute),
              (0...59).contains(components.second ?? 0),
              components.isValidDate(in: calendar),
              let date = calendar.date(from: components) else { throw failure }
        return date.addingTimeInterval(fraction)
    }

    /// Seconds since 1970 of a UTC reading (libc's `timegm`), nil for one that does not exist (February
    /// 30). No Calendar or zone: those load ICU's data, most of a light command's start.
    static func utcSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int? {
        LocalTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second, reading: timegm)
    }

    private struct CharacterCursor {
        let characters: [Character]
        var position = 0

        init(characters: [Character]) {
            self.characters = characters
        }

        var atEnd: Bool { position >= characters.count }

        func peek() -> Character? { atEnd ? nil : characters[position] }

        mutating func next() -> Character? {
            guard !atEnd else { return nil }
            defer { position += 1 }
            return characters[position]
        }

        mutating func take(_ character: Character) -> Bool {
            guard peek() == character else { return false }
            position += 1
            return true
        }

        mutating func digits(_ count: Int) -> Int? {
            guard position + count <= characters.count else { return nil }
            let slice = characters[position..<position + count]
            guard slice.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(String(slice)) else {
                return nil
            }
            position += count
            return value
        }
    }
}
