import Foundation
import IntercomBase
import IntercomPhone
import IntercomTestSupport

/// Issue 40: a call Kamailio forks to a site's three desks, answered at B with `intercom ctl answer`.
/// Measured by the events' own `time` fields: B's `call_answered` → A's and C's `call_ended` naming B
/// (what their screens show); and, as the same run's reference, `ctl answer` launched → B's own
/// `call_answered` (what a lone desk's answer costs). Every wait is bounded: a desk that does not
/// register, ring, answer or end fails the section in one line.
enum SiteCallBench {
    struct Figures {
        var endedAtA = Samples(), endedAtC = Samples(), answer = Samples()
    }

    static let desks = ["A", "B", "C"]
    /// Seconds any one step may take before the section gives up.
    static let patience = 10.0

    static func run(intercom: String, work: String, siteURL: String, calls: Int) async throws -> Figures {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let outcome: Result<Figures, Error>
        do { outcome = .success(try await withDesks(intercom: intercom, work: work, siteURL: siteURL, kamailio: kamailio, calls: calls)) }
        catch { outcome = .failure(error) }
        await kamailio.stop()
        return try outcome.get()
    }

    /// The desks as DaemonSiteCallTests configures them (registered at Kamailio as `desk`, so it forks
    /// to all three), on the bench's PostgreSQL (trust on loopback: no password file).
    static func config(desk: String, siteURL: String, kamailio: Kamailio) -> String {
        kamailio.deskSIPSection + """


        [site]
        url = \(siteURL)
        desk = \(desk)
        operator = op-\(desk.lowercased())

        """
    }

    static func home(_ work: String, _ desk: String) -> String { "\(work)/site-call-\(desk)" }

    private static func withDesks(intercom: String, work: String, siteURL: String, kamailio: Kamailio, calls: Int) async throws -> Figures {
        var running: [BenchDaemon] = []
        defer { for desk in running { desk.process.stop() } }
        for desk in desks {
            let home = home(work, desk)
            try FileManager.default.createDirectory(atPath: "\(home)/run", withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            running.append(try await BenchDaemon.start(intercom: intercom, home: home,
                                                       config: config(desk: desk, siteURL: siteURL, kamailio: kamailio),
                                                       environment: ["XDG_RUNTIME_DIR": "\(home)/run"], timeout: 60))
        }
        var cursors: [Int] = []
        for (name, desk) in zip(desks, running) {
            guard let registered = await desk.process.waitLine(containing: "\"event\":\"registered\"", after: desk.firstEvent, timeout: patience) else {
                throw BenchError("desk \(name) did not register at Kamailio (\(kamailio.uri)) within \(Int(patience)) s")
            }
            cursors.append(registered.index + 1)
        }
        let caller = try await BenchDaemon.caller(work: work, name: "site-caller")
        let established = EstablishedCalls()
        // The caller's events, read for the whole run; they end when the caller stops.
        async let reading: Void = established.read(caller.events)
        let outcome: Result<Figures, Error>
        do {
            var figures = Figures()
            for round in 1...calls {
                try await call(round, from: caller, to: "sip:desk@\(kamailio.hostPort)", desks: running,
                               cursors: &cursors, established: established, into: &figures, intercom: intercom, work: work)
            }
            outcome = .success(figures)
        } catch { outcome = .failure(error) }
        await caller.stop()
        await reading
        return try outcome.get()
    }

    /// One forked call: rung at A, B and C, answered at B, ended at A and C naming B, hung up by the caller.
    private static func call(_ round: Int, from caller: Phone, to uri: String, desks: [BenchDaemon], cursors: inout [Int],
                             established: EstablishedCalls, into figures: inout Figures, intercom: String, work: String) async throws {
        let id = try await caller.call(uri, video: false)
        var rung: [(index: Int, call: String)] = []
        for (i, desk) in desks.enumerated() {
            guard let incoming = await desk.process.waitLine(containing: "\"event\":\"call_incoming\"", after: cursors[i], timeout: patience),
                  let call = JSONValue.parse(incoming.line)?["call"]?.stringValue else {
                try? await caller.hangup(id)
                throw BenchError("call \(round): desk \(Self.desks[i]) did not ring within \(Int(patience)) s")
            }
            rung.append((incoming.index, call))
        }
        let b = desks[1], bHome = home(work, "B")
        let launched = Date()
        let answer = try TimedRun.run(intercom, ["ctl", "answer", "--config", "\(bHome)/config.ini"],
                                      environment: ["HOME": bHome, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": "\(bHome)/run"], scratch: work)
        guard answer.status == 0,
              let answered = await b.process.waitLine(containing: "\"event\":\"call_answered\"", after: rung[1].index, timeout: patience),
              let answeredAt = time(answered.line) else {
            try? await caller.hangup(id)
            throw BenchError("call \(round): `intercom ctl answer` at B (exit \(answer.status)) did not answer it within \(Int(patience)) s")
        }
        figures.answer.add(answeredAt.timeIntervalSince(launched) * 1000)
        for i in [0, 2] {
            let ended = await desks[i].process.waitLine(containing: "\"event\":\"call_ended\"", after: rung[i].index, timeout: patience)
            let event = ended.flatMap { JSONValue.parse($0.line) }
            guard event?["call"]?.stringValue == rung[i].call, event?["reason"]?.stringValue == "answered_elsewhere",
                  event?["desk"]?.stringValue == "B", let endedAt = ended.flatMap({ time($0.line) }) else {
                try? await caller.hangup(id)
                throw BenchError("call \(round): desk \(Self.desks[i]) did not end its leg naming B: "
                                 + (ended?.line ?? "no call_ended within \(Int(patience)) s"))
            }
            let ms = endedAt.timeIntervalSince(answeredAt) * 1000
            if i == 0 { figures.endedAtA.add(ms) } else { figures.endedAtC.add(ms) }
            cursors[i] = (ended?.index ?? cursors[i]) + 1
        }
        // Hung up once the caller has the 200 OK (a BYE, not a CANCEL crossing it); B's leg ends before the next call.
        let confirmed = await established.wait(for: id, within: patience)
        try await caller.hangup(id)
        guard confirmed, let endedB = await b.process.waitLine(containing: "\"event\":\"call_ended\"", after: answered.index, timeout: patience) else {
            throw BenchError("call \(round): \(confirmed ? "B's leg did not end after the caller hung up" : "the caller never saw B's answer") within \(Int(patience)) s")
        }
        cursors[1] = endedB.index + 1
    }

    /// The event's own `time` (made in the engine, ms resolution).
    static func time(_ line: String) -> Date? { JSONValue.parse(line)?["time"]?.stringValue.flatMap(RFC3339.date) }
}

/// The caller's calls that reached `established`, as its events report them.
final class EstablishedCalls: @unchecked Sendable {
    // `calls` is guarded by `lock`.
    private let lock = NSLock()
    private var calls: Set<CallID> = []

    func read(_ events: AsyncStream<PhoneEvent>) async {
        for await event in events {
            if case .established(let id, _) = event { _ = lock.withLock { calls.insert(id) } }
        }
    }

    func wait(for id: CallID, within seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lock.withLock({ calls.contains(id) }) { return true }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return false
    }
}

/// `intercom-bench INTERCOM WORK CALLS --site-call-only --site-url URL`: run by scripts/bench-site.sh,
/// which starts the PostgreSQL the desks share; CALLS forked calls (10 when CALLS is 0).
func siteCallSection() async throws {
    guard let url = optionValue("--site-url") else {
        throw BenchError("--site-call-only needs --site-url postgresql://…")
    }
    let rounds = calls > 0 ? calls : 10
    let figures = try await SiteCallBench.run(intercom: intercom, work: work, siteURL: url, calls: rounds)
    line("A call forked to the site's three desks (Kamailio on loopback; each desk registered there as `desk`), \(rounds)")
    line("times; each answered at B with `intercom ctl answer`. By the events' own `time` fields (ms resolution): B's")
    line("`call_answered` → A's and C's `call_ended` naming B (answered elsewhere, through the store and its NOTIFY); the")
    line("reference is the same run's `ctl answer` launched → B's `call_answered` (`ctl` starting included). Load average")
    line("after: \(BenchMachine.loadAverage()).")
    line()
    line("| figure | samples | median | max | target |")
    line("|---|---|---|---|---|")
    for (name, samples) in [("answered at B → A names B", figures.endedAtA), ("answered at B → C names B", figures.endedAtC)] {
        line("| \(name) | \(samples.values.count) | \(f(samples.median, 0)) ms | \(f(samples.max, 0)) ms | ≤ 200 ms: \(ok(samples.median <= 200)) |")
    }
    line("| `ctl answer` → B's `call_answered` (a lone desk's answer) | \(figures.answer.values.count) | \(f(figures.answer.median, 0)) ms "
        + "| \(f(figures.answer.max, 0)) ms | reference |")
    line()
}
