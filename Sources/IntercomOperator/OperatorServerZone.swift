import Foundation
import IntercomBase

/// The zone the server really writes its times in. SmartYard formats `plog.date` and `autoOpen`,
/// and parses `expire`, with PHP's `date()`/`strtotime()` in PHP's default zone (UTC on a stock
/// PHP), while `ext/options` `timeZone` names the zone of `mobile.time_zone`, which only the
/// archive export uses. So the client learns the offset from what the server writes: the log
/// entry of an opening this client asked for (`address/openDoor` logs "opened by app" at the
/// server's `time()`) carries the moment of the request, written in the server's zone.
public enum OperatorServerZone {
    /// How far the server's clock and this one may disagree, plus the request's own time.
    static let tolerance: TimeInterval = 150
    /// Real zones are whole quarter hours east or west of UTC, at most 14 h.
    static let step: TimeInterval = 900
    /// A probe older than this is dropped unseen: the operator's log keeps a few days.
    public static let probeLifetime: TimeInterval = 3 * 86400

    /// The offset (seconds east of UTC) the entry `date` shows, when it is the log entry of
    /// `probe`: the entry's wall time read as UTC, less the moment the request was sent, is a
    /// whole number of quarter hours within `tolerance`. Nil when it cannot be that entry.
    public static func offset(date text: String, sent: Date) -> Int? {
        guard let wall = OperatorTime.parse(text, timeZone: utc) else { return nil }
        let difference = wall.timeIntervalSince(sent)
        let rounded = (difference / step).rounded() * step
        guard abs(difference - rounded) <= tolerance, abs(rounded) <= 14 * 3600 else { return nil }
        return Int(rounded)
    }

    /// The offset `probe` shows in a day of the log (`address/plog`'s raw entries): an
    /// "opened by app" entry of the probe's door, from `phone` when the entry names one. The entry
    /// nearest a whole quarter hour wins: an older opening of the same door fits only by chance.
    public static func learn(from entries: [JSONValue], probe: OperatorZoneProbe, phone: String?) -> Int? {
        var best: (offset: Int, miss: TimeInterval)?
        for entry in entries where entry["event"]?.looseInt == PlogEvent.openedByApp.rawValue {
            guard entry.text("objectId") == probe.domophoneId,
                  entry["objectMechanizma"]?.looseInt ?? 0 == probe.doorId,
                  let date = entry.text("date"), let offset = offset(date: date, sent: probe.sent),
                  let wall = OperatorTime.parse(date, timeZone: utc) else { continue }
            if let phone, let who = entry["detailX"]?.text("phone"), who != phone { continue }
            let miss = abs(wall.timeIntervalSince(probe.sent) - TimeInterval(offset))
            if best.map({ miss < $0.miss }) ?? true { best = (offset, miss) }
        }
        return best?.offset
    }

    /// The zone to read the server's times in: `named` (ext/options) when it has the learned
    /// offset now (it knows the zone's summer time too), else the fixed offset.
    public static func zone(offset: Int, named: TimeZone?) -> TimeZone {
        if let named, named.secondsFromGMT() == offset { return named }
        return TimeZone(secondsFromGMT: offset) ?? utc
    }

    /// `+03:00`: an offset as `doctor` shows it.
    public static func describe(_ offset: Int) -> String {
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return String(format: "UTC%@%02d:%02d", sign, minutes / 60, minutes % 60)
    }

    static let utc = TimeZone(secondsFromGMT: 0) ?? .current
}
