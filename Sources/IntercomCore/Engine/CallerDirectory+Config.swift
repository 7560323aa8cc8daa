import IntercomBase
extension CallerDirectory {
    /// The directory the config describes: each panel's addresses (host names resolved now),
    /// the registrar's, and the unknown-caller policy. Panels none of whose calls could ever be
    /// recognised are named in the log, with the fix. With `[operator]` sections, a call through the
    /// registrar from an operator's panel (`1XXXXX`) passes the gate; the engine names its door.
    public init(panels: [PanelConfig], sip: SIPSettings, operatorCalls: Bool = false, logger: Logger) {
        let registrar = sip.account.flatMap(RegistrarAddress.init(account:)).map { [$0.host] } ?? []
        self.init(panels: panels, registrarHosts: registrar, rejectStrangers: sip.unknownCallers == .reject,
                  operatorCalls: operatorCalls, resolve: HostResolver.addresses(of:))
        for name in unreachable {
            logger.warning("panel \(name): its url host does not resolve, so none of its calls can be recognised; set source = IP in [panel \(name)]")
        }
    }
}
