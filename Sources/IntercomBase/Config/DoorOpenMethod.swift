/// How "open door" is carried out during a call. `both` exists because some
/// installations wire the lock relay to only one of the two paths.
public enum DoorOpenMethod: String, Sendable, Equatable, CaseIterable {
    case http, dtmf, both
}
