/// How `user/requestCode` is asked to confirm a login (`intercom login --sms | --call`); none
/// lets the server choose: its configured method, else `outgoingCall`.
public enum LoginMethod: String, Sendable, CaseIterable {
    case sms
    case outgoingCall
}
