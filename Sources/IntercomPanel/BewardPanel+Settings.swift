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
