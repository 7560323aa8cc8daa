import IntercomBase

/// Settings pages `intercom setup` reads (never writes) to fill the config for the user: the SIP
/// account the panel calls from and its camera's RTSP port (beward-http-api.md §4).
extension BewardPanel {
    /// `sip_cgi?action=get`: `AccUser1` (the user its calls come from), `AccountEnable1`, … Nil on
    /// firmware without the page.
    public func sipSettings() async throws(PanelError) -> KeyValueBody? {
        try await settingsPage("sip_cgi")
    }

    /// `rtsp_cgi?action=get`: `RtspSwitch` (open/close), `RtspAuth`, `RtspPort`. Nil on firmware
    /// without the page.
    public func rtspSettings() async throws(PanelError) -> KeyValueBody? {
        try await settingsPage("rtsp_cgi")
    }

    /// `sip_cgi?action=regstatus` → `AccountReg1`: whether the panel's own SIP account is registered
    /// with its server. Nil when the firmware does not say.
    public func sipRegistration() async throws(PanelError) -> Bool? {
        let page: KeyValueBody
        do {
            page = KeyValueBody(parsing: try await request(cgi: "sip_cgi", query: "action=regstatus").text)
        } catch .unsupported {
            return nil
        }
        switch page["AccountReg1"]?.trimmingCharacters(in: .whitespaces) {
        case "1": return true
        case "0": return false
        default: return nil
        }
    }

    /// Whether the panel has an alarm stream, for `doctor`: the first of `.connected` (it has one),
    /// `.noAlarmStream` or `.unreachable`, within about `confirmAfter` plus a connect.
    public func alarmStreamCheck(confirmAfter: Duration = .seconds(1)) async -> AlarmStream.Event? {
        let stream = alarmStream(options: .init(failuresBeforeUnreachable: 1, confirmAfter: confirmAfter))
        defer { stream.cancel() }
        for await event in stream.events {
            switch event {
            case .connected, .noAlarmStream, .unreachable: return event
            case .alarm, .reachable: continue
            }
        }
        return nil
    }

    /// `systeminfo_cgi` `UpTime` (`d.hh:mm:ss`): how long the panel has run; nil when unreadable.
    public func uptime() async throws(PanelError) -> Duration? {
        guard let text = try await systemInfo()["UpTime"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        let dayAndClock = text.split(separator: ".", maxSplits: 1)
        let clock = (dayAndClock.last ?? "").split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, let days = dayAndClock.count == 2 ? Int(dayAndClock[0]) : 0 else { return nil }
        return .seconds(((days * 24 + clock[0]) * 60 + clock[1]) * 60 + clock[2])
    }

    private func settingsPage(_ cgi: String) async throws(PanelError) -> KeyValueBody? {
        do {
            let response = try await request(cgi: cgi, query: "action=get")
            let body = KeyValueBody(parsing: response.text)
            // "Error: unknown action" and the like carry no key: as good as no page.
            return body.pairs.isEmpty ? nil : body
        } catch .unsupported {
            return nil
        }
    }
}
