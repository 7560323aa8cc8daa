public enum RegistrationState: String, Sendable, Equatable {
    case progress, registered, cleared, failed
}
