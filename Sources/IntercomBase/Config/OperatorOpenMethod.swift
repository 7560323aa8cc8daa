/// How `o` opens the door in a call from an operator's panel (`[operator NAME] open`): the door's
/// DTMF digit in the call, as SmartYard's apps do (its server passes the tone to the panel), or a
/// request to the operator's API (`address/openDoor`), which needs no audio path.
public enum OperatorOpenMethod: String, Sendable, Equatable, CaseIterable {
    case dtmf
    case api
}
