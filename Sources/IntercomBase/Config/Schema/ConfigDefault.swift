/// A key's default as the reference shows it.
enum ConfigDefault {
    /// A value the key's parser takes: a test checks that writing it changes nothing.
    case value(String)
    /// A default that depends on something else (another key, the environment).
    case note(String)

    var reference: String {
        switch self {
        case .value(let text): text.isEmpty ? "(empty)" : "`\(text)`"
        case .note(let text): text
        }
    }
}
