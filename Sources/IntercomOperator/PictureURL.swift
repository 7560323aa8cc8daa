import Foundation
import IntercomBase

/// A log entry's or a face's picture URL (`plogCamshot`, `frs` images) is a capability: the server
/// hands the picture to whoever holds the URL, with no login (server/mobile/address/plogCamshot.php).
/// Printed whole it leaks into shell history, logs and pasted bug reports, so the commands show
/// only where it points unless `--show-urls` asks for it whole (docs/SECURITY.md).
public enum PictureURL {
    /// The option that prints them whole.
    public static let showOption = "--show-urls"

    /// `https://host/…`: the server, never the path that is the secret.
    public static func masked(_ url: String) -> String {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme, let host = parsed.host else { return "…" }
        return "\(scheme)://\(host)\(parsed.port.map { ":\($0)" } ?? "")/…"
    }

    /// `object` with its `field` masked when it is a URL text (`show`: left whole).
    public static func masking(_ field: String, in object: JSONValue, show: Bool) -> JSONValue {
        guard !show, case .object(var fields) = object else { return object }
        for index in fields.indices where fields[index].0 == field {
            if let url = fields[index].1.stringValue { fields[index].1 = .string(masked(url)) }
        }
        return .object(fields)
    }
}
