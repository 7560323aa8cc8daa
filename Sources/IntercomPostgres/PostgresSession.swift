import CPostgres
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One libpq connection, touched only by its `PostgresConnection`'s thread (libpq's connections are
/// not to be shared between threads): connects on first use and again after a loss, runs statements
/// with bound parameters (never spliced into the SQL), and LISTENs again after every reconnect.
/// libpq is reached through `PostgresLibrary`'s table, loaded at the first connect.
///
/// Nothing waits in libpq's blocking calls: the connect and every statement go through its
/// asynchronous API with poll() on the socket until `deadline` (`PostgresSession+Deadline`), so a
/// server that stopped answering (SIGSTOP, a dead link without a reset) fails the request in time.
final class PostgresSession {
    let target: PostgresTarget
    private let deliver: (PostgresNotice) -> Void
    /// The open connection and the library it came from (a connection implies a loaded libpq).
    var link: (pq: intercom_libpq, connection: OpaquePointer)?
    private(set) var channels: [String] = []
    private let thread: Thread
    /// When the request running now must be done by (the connection's thread sets it for each job,
    /// counted from when the job was posted, so jobs queued behind a frozen one expire with it).
    var deadline = ContinuousClock.now
    /// Host names being looked up, by name: a lookup the last connect gave up on is joined, not started again.
    var lookups: [String: HostLookup] = [:]

    init(target: PostgresTarget, deliver: @escaping (PostgresNotice) -> Void) {
        self.target = target
        self.deliver = deliver
        thread = Thread.current
    }

    deinit { drop() }

    /// The connection's socket while connected, for the thread's poll.
    var socket: Int32? {
        guard let link, link.pq.status(link.connection) == CONNECTION_OK else { return nil }
        let fd = link.pq.socket(link.connection)
        return fd >= 0 ? fd : nil
    }

    /// Whether a listener lost its connection and should try again.
    var wantsResume: Bool { link == nil && !channels.isEmpty }

    func execute(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> PostgresRows {
        precondition(Thread.current == thread, "a PostgreSQL session is used on its own thread only")
        guard !parameters.contains(where: { $0?.contains("\0") == true }) else {
            throw PostgresError(.statement, "a value holds a NUL byte, which PostgreSQL text cannot store")
        }
        try checkDeadline()
        let (pq, connection) = try connected()
        let result = try exchange(pq, connection, sql, parameters)
        defer { pq.clear(result) }
        let status = result.map { pq.result_status($0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK, let result else {
            if pq.status(connection) != CONNECTION_OK { throw broken(pq, connection) }
            let message = result.map { Self.text(pq.result_error_field($0, Int32(UInt8(ascii: "M")))) } ?? ""
            let state = result.flatMap { pq.result_error_field($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
            throw PostgresError(.statement, message.isEmpty ? Self.text(pq.error_message(connection)) : message, sqlState: state)
        }
        drainNotifications()
        return Self.rows(result, pq)
    }

    /// LISTEN on `channel` (an identifier of ours: lower-case letters and `_`), now and after each reconnect.
    func listen(_ channel: String) throws(PostgresError) {
        guard !channel.isEmpty, channel.allSatisfy({ ($0.isASCII && $0.isLowercase) || $0 == "_" }) else {
            throw PostgresError(.statement, "'\(channel)' is not a channel name (lower-case letters and _)")
        }
        guard !channels.contains(channel) else { return }
        // Kept even when the server cannot be reached now: the thread then tries again every second.
        channels.append(channel)
        do {
            _ = try execute("LISTEN \(channel)", [])
        } catch where error.kind == .statement {
            channels.removeLast()
            throw error
        }
    }

    /// The socket was readable: take what arrived; a read that fails is a lost connection.
    func consumeInput() {
        guard let link else { return }
        if link.pq.consume_input(link.connection) == 0 || link.pq.status(link.connection) != CONNECTION_OK {
            _ = broken(link.pq, link.connection)
            return
        }
        drainNotifications()
    }

    /// A listener without a connection tries again; on success it says `resumed`.
    func resume() {
        guard wantsResume else { return }
        deadline = .now + target.timeout
        do {
            _ = try connected()
            deliver(.resumed)
        } catch {
            drop()
        }
    }

    func drop() {
        if let link { link.pq.finish(link.connection) }
        link = nil
    }

    func lose(_ error: PostgresError) {
        drop()
        if !channels.isEmpty { deliver(.lost(error)) }
    }

    private func connected() throws(PostgresError) -> (pq: intercom_libpq, connection: OpaquePointer) {
        if let link, link.pq.status(link.connection) == CONNECTION_OK { return link }
        drop()
        let pq: intercom_libpq
        switch PostgresLibrary.loaded {
        case .success(let functions): pq = functions.c
        case .failure(let error): throw PostgresError(.connect, error.description)
        }
        let made = try connect(pq)
        // A server's NOTICEs (`relation … already exists, skipping`) are no news for the user: libpq
        // would print them on stderr.
        _ = pq.set_notice_processor(made, { _, _ in }, nil)
        link = (pq, made)
        for channel in channels {
            do throws(PostgresError) {
                let result = try exchange(pq, made, "LISTEN \(channel)", [])
                defer { pq.clear(result) }
                guard result.map({ pq.result_status($0) }) == PGRES_COMMAND_OK else {
                    throw PostgresError(.connect, Self.text(pq.error_message(made)))
                }
            } catch {
                drop()
                throw PostgresError(.connect, "cannot listen on the site's database: \(error.message)")
            }
        }
        return (pq, made)
    }

    private func drainNotifications() {
        guard let link else { return }
        while let notice = link.pq.notifies(link.connection) {
            let channel = String(cString: notice.pointee.relname)
            let payload = notice.pointee.extra.map { String(cString: $0) } ?? ""
            link.pq.freemem(notice)
            deliver(.notification(channel: channel, payload: payload))
        }
    }

    private static func rows(_ result: OpaquePointer, _ pq: intercom_libpq) -> PostgresRows {
        let fields = pq.nfields(result)
        let columns = (0..<fields).map { pq.fname(result, $0).map { String(cString: $0) } ?? "" }
        let rows = (0..<pq.ntuples(result)).map { row in
            (0..<fields).map { field -> String? in
                pq.getisnull(result, row, field) != 0 ? nil : pq.getvalue(result, row, field).map { String(cString: $0) }
            }
        }
        let affected = pq.cmd_tuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
        return PostgresRows(columns: columns, rows: rows, affected: affected)
    }

    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
    static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}

/// C strings for libpq's arrays (NULL stays NULL), freed when `body` returns.
enum CStrings {
    static func with<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}
