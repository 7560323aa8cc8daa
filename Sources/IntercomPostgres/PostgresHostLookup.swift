import Foundation
import IntercomBase
#if canImport(Glibc)
import Glibc
#endif

/// How a host name of the URI becomes addresses. libpq would look it up itself, synchronously
/// inside `PQconnectStartParams`, where no deadline reaches: a dead resolver would hold the
/// connection's thread (and every request behind it) for the resolver's own timeouts. So the
/// session looks names up here, bounded by the request's deadline, and hands libpq the addresses
/// (`hostaddr`) beside the names (`host`, kept for TLS verify-full and the password file).
///
/// `system` runs getaddrinfo on a short-lived thread of its own: getaddrinfo cannot be cancelled,
/// so a lookup still running at the deadline is abandoned (its answer, when it comes, is dropped).
/// Tests give a resolver that answers late or never. `start` calls `answer` once, or never.
struct HostResolver: Sendable {
    let start: @Sendable (_ host: String, _ answer: @escaping @Sendable (Result<[String], NameLookup.Failure>) -> Void) -> Void

    static let system = HostResolver { host, answer in
        let thread = Thread { answer(NameLookup.addresses(of: host, socketType: Int32(SOCK_STREAM.rawValue))) }
        thread.name = "intercom.lookup"
        thread.start()
    }
}

/// One lookup in flight: its answer once it came, waited for by the connection's thread until a
/// deadline. A lookup not done by then stays in the session's list, so the next connect joins it
/// instead of starting another thread on the same dead resolver.
final class HostLookup: @unchecked Sendable {
    // @unchecked: `answer` is read and written only under `condition`.
    private let condition = NSCondition()
    private var answer: Result<[String], NameLookup.Failure>?

    init(_ host: String, _ resolver: HostResolver) {
        resolver.start(host) { [self] result in
            condition.lock()
            answer = result
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The answer if it came by `deadline`, nil if not.
    func wait(until deadline: ContinuousClock.Instant) -> Result<[String], NameLookup.Failure>? {
        condition.lock()
        defer { condition.unlock() }
        while answer == nil {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        }
        return answer
    }
}

extension PostgresSession {
    /// libpq's keywords for this connect: the target's, and where the URI names hosts by name, each
    /// looked up by the deadline and given as `host`/`hostaddr`/`port` lists (after the URI, which
    /// they override). A name with several addresses is tried at each, in the resolver's order, as
    /// libpq would; a name that does not resolve is left out while another host remains.
    func connectKeywords() throws(PostgresError) -> [(String, String)] {
        let keywords = target.keywords
        guard let url = SiteURL(parsing: target.url), !url.namesAddresses else { return keywords }
        let names = url.endpoints.map(\.host).filter(PostgresHosts.isName)
        guard !names.isEmpty else { return keywords }
        for name in names where lookups[name] == nil { lookups[name] = HostLookup(name, target.resolver) }
        var found: [String: [String]] = [:]
        var failures: [String] = []
        for name in Set(names).sorted() {
            guard let answer = lookups[name]?.wait(until: deadline) else {
                throw PostgresError(.connect, "cannot reach the site's database: looking up its host '\(name)' \(didNotAnswer)")
            }
            lookups[name] = nil
            switch answer {
            case .success(let addresses): found[name] = addresses
            case .failure(let failure): failures.append("its host '\(name)' has no address (\(failure.reason))")
            }
        }
        guard let lists = PostgresHosts.keywords(url.endpoints, addresses: found) else {
            throw PostgresError(.connect, "cannot reach the site's database: " + failures.joined(separator: "; "))
        }
        return keywords + lists
    }
}

/// The `host`/`hostaddr`/`port` lists libpq is given once the names are looked up.
enum PostgresHosts {
    /// A host name to look up: not empty (libpq's default socket), not a socket's folder, not numeric.
    static func isName(_ host: String) -> Bool {
        guard !host.isEmpty, !host.hasPrefix("/"), !host.hasPrefix("@") else { return false }
        var scratch = in6_addr()
        return inet_pton(AF_INET, host, &scratch) != 1 && inet_pton(AF_INET6, host, &scratch) != 1
    }

    /// Each endpoint once per address of its name (a numeric host or a socket as it is, its `hostaddr`
    /// empty), `port` only if the URI gave one; nil when no endpoint is left (every name failed).
    static func keywords(_ endpoints: [SiteURL.Endpoint], addresses: [String: [String]]) -> [(String, String)]? {
        var hosts: [String] = [], numeric: [String] = [], ports: [String] = []
        for endpoint in endpoints {
            let each = isName(endpoint.host) ? addresses[endpoint.host] ?? [] : [""]
            for address in each {
                hosts.append(endpoint.host)
                numeric.append(address)
                ports.append(endpoint.port)
            }
        }
        guard !hosts.isEmpty else { return nil }
        let lists = [("host", hosts), ("hostaddr", numeric)] + (ports.allSatisfy(\.isEmpty) ? [] : [("port", ports)])
        return lists.map { ($0.0, $0.1.joined(separator: ",")) }
    }
}
