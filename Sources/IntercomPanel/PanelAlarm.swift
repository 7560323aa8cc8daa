import Foundation

/// One line of `alarmchangestate_cgi`: `YYYY-MM-DD;HH:MM:SS;Name;0|1;channel`.
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
    public let channel: Int
    /// The panel's local clock as it wrote it ("2019-07-28 15:51:52"); panels are often unsynchronised,
    /// so this is informative only and never parsed into a Date.
    public let panelTime: String

    public init(kind: Kind, active: Bool, channel: Int = 0, panelTime: String = "") {
        self.kind = kind
        self.active = active
        self.channel = channel
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
        channel = fields.count > 4 ? Int(fields[4]) ?? 0 : 0
        panelTime = "\(fields[0]) \(fields[1])"
    }
}
