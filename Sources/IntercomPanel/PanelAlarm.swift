import Foundation

import IntercomBase

/// One line of `alarmchangestate_cgi`: `YYYY-MM-DD;HH:MM:SS;Name;0|1;N[,N…]`. The fifth field is
/// not a channel but a list of the inputs/outputs concerned (`1,2`, as SmartYard's parsers and
/// py-beward's fixtures show); line ends may be LF or CRLF.
public struct PanelAlarm: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// `SensorAlarm`: the call button (on DS units; unknown on DKS).
        case ding
        /// `MotionDetection`.
        case motion
        /// `SensorOutAlarm`: the door relay is energised.
        case door
    }

    public let kind: Kind
    public let active: Bool
    /// The fifth field's numbers: which inputs (button, sensor) or relays fired; empty when absent.
    public let numbers: [Int]
    /// The panel's local clock as it wrote it ("2019-07-28 15:51:52"); panels are often unsynchronised,
    /// so this is informative only and never parsed into a Date.
    public let panelTime: String

    public init(kind: Kind, active: Bool, numbers: [Int] = [], panelTime: String = "") {
        self.kind = kind
        self.active = active
        self.numbers = numbers
        self.panelTime = panelTime
    }

    /// Nil for blank, malformed or unknown lines, which the stream skips.
    public init?(line: some StringProtocol) {
        let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard fields.count >= 4 else { return nil }
        switch fields[2] {
        case "SensorAlarm": kind = .ding
        case "MotionDetection": kind = .motion
        case "SensorOutAlarm": kind = .door
        default: return nil
        }
        switch fields[3] {
        case "1": active = true
        case "0": active = false
        default: return nil
        }
        numbers = fields.count > 4
            ? fields[4].split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            : []
        panelTime = "\(fields[0]) \(fields[1])"
    }

    /// For a relay line (`SensorOutAlarm`), the doors its numbers name: relay 1 is the main lock,
    /// 2 the second, 3 the third output (1-based, as `controller_cgi`'s `Status1..3`; to be
    /// confirmed on hardware, docs/BEWARD.md). Empty for other kinds and for `0`.
    public var doors: [Door] {
        guard kind == .door else { return [] }
        return numbers.compactMap { number in
            switch number {
            case 1: .main
            case 2: .alt
            case 3: .light
            case 4...: .output(number - 1)
            default: nil
            }
        }
    }
}
