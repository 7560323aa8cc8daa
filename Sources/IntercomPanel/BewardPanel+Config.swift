import IntercomBase
extension BewardPanel {
    /// The HTTP client a `[panel NAME]` section describes.
    public convenience init(panelConfig panel: PanelConfig) throws(PanelError) {
        try self.init(name: panel.name, baseURL: panel.url, user: panel.user, password: panel.password ?? "",
                      auth: panel.auth, model: panel.model, insecure: panel.tlsInsecure, caFile: panel.caFile)
    }
}
