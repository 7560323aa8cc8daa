#if canImport(Glibc)
import Glibc
#endif
import IntercomBase

/// Numeric addresses of a host name, for the panels and registrars whose calls are trusted by
/// the address they come from. Looked up when the config is read (start, SIGHUP), not per call:
/// a name that later resolves elsewhere takes a reload, which the docs say.
enum HostResolver {
    static func addresses(of host: String) -> [String] {
        (try? NameLookup.addresses(of: host, socketType: Int32(SOCK_DGRAM.rawValue)).get()) ?? []
    }
}
