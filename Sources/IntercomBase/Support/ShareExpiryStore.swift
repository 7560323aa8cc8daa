import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The ends of shared access this intercom keeps (`ShareExpiry`), in
/// `$XDG_STATE_HOME/intercom/share-expiries.json`: 0600, written whole through `DurableFile`, so the
/// daemon finds them again after a restart. The daemon writes it; `intercom share --list` reads it.
/// A file that is not a plain file of ours (a link, another user's, one others may write: `StateFile`)
/// is never read: it could take a guest's access away, or keep one that should end.
public struct ShareExpiryStore: Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    public init(environment: [String: String]) {
        self.init(path: StateDirectory.path(environment: environment) + "/share-expiries.json")
    }

    /// What a load found besides the expiries: why the file was not read (nil: read, or absent).
    public struct Loaded: Sendable {
        public var expiries: [ShareExpiry]
        public var problem: String?
    }

    public func load() -> Loaded {
        let data: Data
        do {
            guard let read = try StateFile.read(path) else { return Loaded(expiries: []) }
            data = read
        } catch {
            return Loaded(expiries: [], problem: "\(error); ignoring it (it is written again at the next 'share --until')")
        }
        guard let json = JSONValue.parse(String(decoding: data, as: UTF8.self)), case .array(let list)? = json["expiries"] else {
            return Loaded(expiries: [], problem: "\(path) is not the expected JSON object; ignoring it (it is rewritten at the next 'share --until')")
        }
        let expiries = list.compactMap(ShareExpiry.init(json:))
        return Loaded(expiries: expiries,
                      problem: expiries.count == list.count ? nil : "\(path): \(list.count - expiries.count) malformed entries ignored")
    }

    /// Writes `expiries` whole (soonest first), making the state folder 0700 if needed.
    public func save(_ expiries: [ShareExpiry], notice: (String) -> Void) throws(StateDirectoryError) {
        let directory = (path as NSString).deletingLastPathComponent
        try StateDirectory.ensure(directory, notice: notice)
        let object = JSONValue.object([("expiries", .array(expiries.sorted { $0.until < $1.until }.map { .object($0.fields) }))])
        do {
            try DurableFile.write(Data((object.encoded + "\n").utf8), to: path)
        } catch {
            let detail = if case .io(let message) = error { message } else { error.description }
            throw StateDirectoryError(directory, .cannotSave(file: path, detail: detail))
        }
    }
}
