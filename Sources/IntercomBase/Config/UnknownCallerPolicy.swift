/// What happens to a call whose caller matches no configured panel.
/// Rejecting is the default so a stray SIP scanner cannot ring the user.
public enum UnknownCallerPolicy: String, Sendable, Equatable, CaseIterable {
    case reject, accept
}
