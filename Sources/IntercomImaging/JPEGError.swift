/// JPEG failures carry libturbojpeg's message; a bad picture from a panel must
/// never take the client down.
public enum JPEGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes do not start a JPEG we can read (garbage, HTML error page, empty).
    case invalidHeader(String)
    /// The header was fine but the data is broken or truncated.
    case corrupt(String)
    case encodeFailed(String)
    /// The RGB buffer does not match the given dimensions, or a dimension is out of range.
    case invalidImage(String)
    /// libturbojpeg could not allocate a handle.
    case unavailable
    /// libturbojpeg is not installed (the line names the package).
    case notLoaded(String)

    public var description: String {
        switch self {
        case .invalidHeader(let m): return "not a readable JPEG: \(m)"
        case .corrupt(let m): return "broken JPEG: \(m)"
        case .encodeFailed(let m): return "JPEG encoding failed: \(m)"
        case .invalidImage(let m): return "invalid image: \(m)"
        case .unavailable: return "libturbojpeg could not be initialised"
        case .notLoaded(let m): return m
        }
    }
}
