import Foundation
import IntercomBase

/// Door relays and outputs (beward-http-api.md §3; docs/BEWARD.md "Doors and outputs").
extension BewardPanel {
    /// Pulse a door relay. Returns when the panel answered `OK`; any other answer is reported
    /// in the panel's own words, since production drivers never read it and the door may still
    /// have opened.
    public func open(door: Door) async throws(PanelError) {
        switch try await detectFamily() {
        case .dks:
            switch door {
            case .main, .output(0): try await expectOK(cgi: "intercom_cgi", query: "action=maindoor")
            case .alt, .output(1): try await expectOK(cgi: "intercom_cgi", query: "action=altdoor")
            case .light, .output(2): try await pulseLight()
            case .output(let n):
                throw .badData("panel \(name) is a DKS panel with outputs 0 (main), 1 (alt) and 2 (light); there is no output \(n)")
            }
        case .ds:
            try await switchDSOutput(door.dsOutput)
        }
    }

    /// The pause between the DKS light's `on` and `off`.
    static let lightPulse: Duration = .milliseconds(100)

    /// DKS has no pulse for the third output, so it is switched on and off again. The `off` is
    /// sent whatever happened to the `on` (failed, timed out, cancelled: the panel may have acted
    /// on it anyway) and whatever happens to the caller, which only waits for it.
    private func pulseLight() async throws(PanelError) {
        let on: PanelError?
        do {
            try await expectOK(cgi: "intercom_cgi", query: "action=light&Enable=on")
            on = nil
        } catch {
            on = error
        }
        try? await Task.sleep(for: Self.lightPulse)
        let off = await switchBacks.run { [self] () async throws(PanelError) in
            try await expectOK(cgi: "intercom_cgi", query: "action=light&Enable=off")
        }
        if let off {
            throw .badData("panel \(name): the light may still be on: Enable=off failed: \(off)"
                + (on.map { " (Enable=on had failed too: \($0))" } ?? ""))
        }
        if let on { throw on }
    }

    /// A DS output: `Status=1`, which the panel releases itself after its unlock time (SmartYard
    /// never sends `Status=0`, so neither does a success here: it would cut the unlock short).
    /// When the `Status=1` did not clearly succeed, `Status=0` is sent so no relay stays on.
    private func switchDSOutput(_ output: Int) async throws(PanelError) {
        do {
            try await expectOK(cgi: "alarmout_cgi", query: "action=set&Output=\(output)&Status=1")
        } catch let on {
            if case .doorReply = on { throw on }  // it answered, in words: it did not switch it
            let off = await switchBacks.run { [self] () async throws(PanelError) in
                try await expectOK(cgi: "alarmout_cgi", query: "action=set&Output=\(output)&Status=0")
            }
            if let off {
                throw .badData("panel \(name): output \(output) may still be on: Status=0 failed: \(off) (Status=1: \(on))")
            }
            throw on
        }
    }

    func expectOK(cgi: String, query: String) async throws(PanelError) {
        let response = try await request(cgi: cgi, query: query)
        let answer = response.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard answer.uppercased() == "OK" else {
            let said = answer.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            throw .doorReply(panel: name, request: "\(cgi) \(query)", said: String(said.prefix(80)))
        }
    }

    /// Waits for every switch-back still running (a caller cancelled while one was sent).
    public func settle() async { await switchBacks.settle() }
}
