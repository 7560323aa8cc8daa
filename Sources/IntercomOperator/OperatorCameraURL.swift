import Foundation
import IntercomBase

/// Where an operator camera's pictures are, in the shapes Flussonic (SmartYard's default DVR) serves:
/// live HLS, an archive window as HLS from a moment, and a one-frame `preview.mp4`. Each URL carries
/// the camera's `token` in its query: a secret, so show a URL only through a form that drops the query.
public struct OperatorCameraURL: Sendable, Equatable {
    /// `url` of `cctv/all` without a trailing slash.
    public let base: String
    let token: String?
    let fmp4: Bool

    /// The camera's addresses, or why it cannot be played: no URL, or a DVR other than Flussonic.
    public static func of(_ camera: OperatorCamera) -> Result<OperatorCameraURL, OperatorCameraURLProblem> {
        guard var base = camera.url, !base.isEmpty,
              let scheme = URLAddress(parsing: base)?.scheme, scheme == "http" || scheme == "https" else {
            return .failure(.noStream(camera: camera.name))
        }
        // SmartYard's DVR backend (server/backends/dvr/internal/internal.php) hands every server that is
        // not Nimble Flussonic's URLs (its default branch), and `sesame` is Flussonic-compatible;
        // Nimble, Macroscop, Trassir and Forpost name their playlists differently.
        guard Self.flussonicShaped(camera.serverType) else {
            return .failure(.unsupportedServer(camera: camera.id, serverType: camera.serverType ?? ""))
        }
        while base.hasSuffix("/") { base.removeLast() }
        return .success(OperatorCameraURL(base: base, token: camera.token, fmp4: camera.hlsMode?.lowercased() == "fmp4"))
    }

    /// Whether a camera's `serverType` serves Flussonic's URLs: none named (the server's default),
    /// `flussonic` or `sesame`.
    public static func flussonicShaped(_ serverType: String?) -> Bool {
        let server = serverType?.lowercased() ?? ""
        return server.isEmpty || server == "flussonic" || server == "sesame"
    }

    /// The live stream.
    public var live: String { address(fmp4 ? "index.fmp4.m3u8" : "index.m3u8") }

    /// The recording from `from`, `seconds` long (Flussonic: `index-FROM-DURATION.m3u8`, unix seconds).
    public func archive(from: Date, seconds: Int) -> String {
        let start = Int(from.timeIntervalSince1970.rounded(.down))
        return address("index-\(start)-\(max(1, seconds))" + (fmp4 ? ".fmp4.m3u8" : ".m3u8"))
    }

    /// The recording from `from`, `seconds` long, as one MP4 file (Flussonic: `archive-FROM-DURATION.mp4`).
    public func archiveMP4(from: Date, seconds: Int) -> String {
        address("archive-\(Int(from.timeIntervalSince1970.rounded(.down)))-\(max(1, seconds)).mp4")
    }

    /// One picture: now, or the recording's frame at `at`.
    public func preview(at: Date? = nil) -> String {
        guard let at else { return address("preview.mp4") }
        return address("\(Int(at.timeIntervalSince1970.rounded(.down)))-preview.mp4")
    }

    private func address(_ name: String) -> String {
        guard let token, !token.isEmpty else { return "\(base)/\(name)" }
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return "\(base)/\(name)?token=\(token.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
    }
}

/// Why an operator camera has no URL we can play, as one line a user can act on.
public enum OperatorCameraURLProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case noStream(camera: String)
    /// `camera`: the camera's id.
    case unsupportedServer(camera: String, serverType: String)

    /// A DVR's name as its maker writes it (`nimble` → Nimble), for the one line.
    static func serverName(_ type: String) -> String {
        switch type.lowercased() {
        case "nimble": "Nimble"
        case "macroscop": "Macroscop"
        case "trassir": "Trassir"
        case "forpost": "Forpost"
        case "": "an unnamed"
        default: type
        }
    }

    public var description: String {
        switch self {
        case .noStream(let camera):
            return "camera \"\(camera)\": the operator gives no stream address for it"
        case .unsupportedServer(let camera, let type):
            return "camera \(camera) is on a \(Self.serverName(type)) server; live and export need Flussonic for now"
        }
    }
}
