import CPostgres
import IntercomBase
#if canImport(Glibc)
import Glibc
#endif

/// libpq's asynchronous API, each wait a poll() on the connection's socket bounded by the session's
/// `deadline`: a server that accepted the connection but stopped answering (SIGSTOP, a machine
/// swapping to death, a link cut without a reset) fails the request at the deadline instead of
/// holding the connection's thread, and every request queued behind it, forever. At the deadline
/// the connection is dropped (a cancel request would need the same silent server to answer); the
/// next request connects afresh.
extension PostgresSession {
    /// The request could not finish by the deadline: what the user reads.
    var timedOut: PostgresError { PostgresError(.lost, "the site's database \(didNotAnswer)") }

    /// How long the database had, in the words of the key that sets it.
    var didNotAnswer: String { "did not answer within \(target.timeout.components.seconds) s (its [site] timeout)" }

    /// Fails a request whose deadline passed while it waited for the ones before it, without
    /// touching the connection (which the request that timed out has already dropped).
    func checkDeadline() throws(PostgresError) {
        guard ContinuousClock.now < deadline else { throw timedOut }
    }

    /// A new connection (its host names looked up first, by the deadline: `connectKeywords`), its handshake (TCP, TLS, authentication) driven by `PQconnectPoll` until
    /// the deadline; non-blocking once made, so a statement's send never waits on a full buffer.
    func connect(_ pq: intercom_libpq) throws(PostgresError) -> OpaquePointer {
        let keywords = try connectKeywords()
        let started = CStrings.with(keywords.map(\.0) + [nil]) { names in
            CStrings.with(keywords.map(\.1) + [nil]) { values in pq.connect_start_params(names, values, 1) }
        }
        guard let made = started else { throw PostgresError(.connect, "cannot reach the site's database: libpq is out of memory") }
        func failed(_ why: String) -> PostgresError {
            pq.finish(made)
            return PostgresError(.connect, "cannot reach the site's database: \(why)")
        }
        guard pq.status(made) != CONNECTION_BAD else { throw failed(Self.text(pq.error_message(made))) }
        var polling = PGRES_POLLING_WRITING
        while polling != PGRES_POLLING_OK {
            guard polling != PGRES_POLLING_FAILED else { throw failed(Self.text(pq.error_message(made))) }
            guard wait(polling == PGRES_POLLING_READING ? POLLIN : POLLOUT, on: pq.socket(made)) else {
                throw failed("it \(didNotAnswer)")
            }
            polling = pq.connect_poll(made)
        }
        guard pq.set_nonblocking(made, 1) == 0 else { throw failed(Self.text(pq.error_message(made))) }
        return made
    }

    /// Sends one statement and reads its result by the deadline: the first error the server sent,
    /// else the last result (nil only if none came). A deadline that passes, or a socket that
    /// breaks, drops the connection (`lose`) and throws `lost`.
    func exchange(_ pq: intercom_libpq, _ connection: OpaquePointer, _ sql: String,
                  _ parameters: [String?]) throws(PostgresError) -> OpaquePointer? {
        let sent = CStrings.with(parameters) { values in
            pq.send_query_params(connection, sql, Int32(values.count), nil, values, nil, nil, 0)
        }
        guard sent == 1 else { throw broken(pq, connection) }
        // Non-blocking: what the socket did not take yet is flushed as it drains.
        while true {
            let flushed = pq.flush(connection)
            if flushed == 0 { break }
            guard flushed == 1 else { throw broken(pq, connection) }
            guard wait(POLLOUT | POLLIN, on: pq.socket(connection)) else { throw expired() }
            guard pq.consume_input(connection) == 1 else { throw broken(pq, connection) }
        }
        var kept: OpaquePointer?
        while true {
            while pq.is_busy(connection) != 0 {
                guard wait(POLLIN, on: pq.socket(connection)) else {
                    pq.clear(kept)
                    throw expired()
                }
                guard pq.consume_input(connection) == 1 else {
                    pq.clear(kept)
                    throw broken(pq, connection)
                }
            }
            guard let next = pq.get_result(connection) else { return kept }
            if let kept, Self.isError(pq.result_status(kept)) {
                pq.clear(next)
            } else {
                pq.clear(kept)
                kept = next
            }
        }
    }

    /// Whether `fd` became ready for `events` before the deadline (an interrupted poll goes on waiting).
    /// A socket libpq no longer has, or one poll() refuses, counts as ready: libpq's next call on it
    /// says what broke, which is truer than "did not answer".
    private func wait(_ events: Int32, on fd: Int32) -> Bool {
        fd < 0 || PollWait.ready(fd, events: Int16(events), until: deadline)
    }

    private func expired() -> PostgresError {
        let error = timedOut
        lose(error)
        return error
    }

    /// The connection broke (a send, a read or a statement found it gone): dropped, and what the user reads.
    func broken(_ pq: intercom_libpq, _ connection: OpaquePointer) -> PostgresError {
        let error = PostgresError(.lost, "the site's database went away: " + Self.text(pq.error_message(connection)))
        lose(error)
        return error
    }

    private static func isError(_ status: ExecStatusType) -> Bool {
        status == PGRES_FATAL_ERROR || status == PGRES_BAD_RESPONSE || status == PGRES_NONFATAL_ERROR
    }
}
