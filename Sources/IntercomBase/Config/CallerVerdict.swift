/// Who a new call is from, decided from the address its packets came from and then its From.
public enum CallerVerdict: Sendable, Equatable {
    /// How a panel's call reached us.
    public enum Route: String, Sendable, Equatable {
        /// From one of the panel's own addresses.
        case direct
        /// Through the `[sip] account`'s registrar, from the registrar's address.
        case registrar
    }

    /// The named panel's call.
    case panel(String, route: Route)
    /// The headers name a panel (its `match`, or its address in From or Contact) but the packets
    /// come from elsewhere: someone pretending to be the panel. `expected` are its addresses.
    case impostor(panel: String, expected: [String])
    /// Through the registrar, from a SmartYard operator's panel: its SIP user is `1` + the
    /// 5-digit domophone id (the operator's numbering). The engine names the door from the
    /// operator's address list; `domophoneId` has no leading zeros (`100001` → `1`).
    case operatorPanel(domophoneId: String)
    /// Nobody we know.
    case stranger
}
