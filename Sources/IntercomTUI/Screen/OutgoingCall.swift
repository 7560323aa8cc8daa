/// The panel `intercom call` calls; nil = the only panel configured.
public struct OutgoingCall: Sendable {
    public var panel: String?

    public init(panel: String?) { self.panel = panel }
}
