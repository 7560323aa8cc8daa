import IntercomCLI
import IntercomSimulator

/// The options that make the simulated panel behave like one real firmware or another
/// (docs/BEWARD.md "What the simulators do").
extension SimulatePanelCommand {
    static func firmwareQuirks(
        _ arguments: ParsedArguments, into http: inout SimulatedPanelOptions,
        fail: (String) -> UsageError
    ) throws(UsageError) {
        http.alarmStream = !arguments.has("--no-alarm-stream")
        http.dksRelayAlarm = arguments.has("--dks-relay-alarm")
        if let text = arguments.value("--keep-alive-ms") {
            guard let ms = Int(text), ms >= 0, ms <= 600_000 else {
                throw fail("option '--keep-alive-ms' takes milliseconds 0-600000, not '\(text)'")
            }
            http.keepAliveMs = ms
        }
        if let text = arguments.value("--relays") {
            guard let relays = Int(text), (1...3).contains(relays) else {
                throw fail("option '--relays' takes 1, 2 or 3, not '\(text)'")
            }
            http.relays = relays
        }
        // A DKS main stream's size unless told otherwise; in-process tests keep 640×480.
        (http.snapshotWidth, http.snapshotHeight) = (1280, 720)
        if let text = arguments.value("--snapshot-size") {
            let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, (16...3840).contains(parts[0]), (16...2160).contains(parts[1]) else {
                throw fail("option '--snapshot-size' takes WIDTHxHEIGHT like 1280x720 (16-3840 by 16-2160), not '\(text)'")
            }
            (http.snapshotWidth, http.snapshotHeight) = (parts[0], parts[1])
        }
    }
}
