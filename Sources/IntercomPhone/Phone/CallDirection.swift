public enum CallDirection: String, Sendable, Equatable, Codable {
    case incoming, outgoing
}
