import Foundation
import Testing
import IntercomHTTP
import IntercomPanel
import IntercomTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Every panel's HTTP work on one event loop: a hundred panels cost no thread each, a dead panel
/// holds only its own transfer, and a cancelled transfer leaves curl at once. Each test has a loop
/// of its own, so its counts are its own.
@Suite(.serialized) struct PanelEventLoopTests {
    @Test func hundredPanelsStreamAndSnapshotOnAConstantNumberOfThreads() async throws {
        let stub = try LoopbackHTTPStub(servers: 100)
        // 15 characters, the most a kernel thread name holds.
        let loopName = "intercom.http.p"
        let loop = try HTTPEventLoop(name: loopName)
        try await withCleanup({ stub.stop() }) {
            let panels = try (0..<100).map {
                try BewardPanel(name: "p\($0)", baseURL: stub.baseURL($0), user: "admin", password: "admin", httpLoop: loop)
            }
            _ = try await panels[0].snapshot()
            // Counted by name: the loop's thread and any thread it started (a started thread inherits the
            // name), not the process's, which other suites in the same test process change at will.
            #expect(ProcessThreads.named(loopName) == 1)
            let before = ProcessThreads.count
            let streams = panels.map { $0.alarmStream() }
            #expect(await TestPatience.eventually(within: .seconds(20), every: .milliseconds(10)) { stub.openStreams == 100 })
            #expect(loop.transfersInFlight == 100)
            var peak = ProcessThreads.named(loopName), processPeak = ProcessThreads.count
            for _ in 0..<3 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for panel in panels { group.addTask { _ = try await panel.snapshot() } }
                    try await group.waitForAll()
                }
                peak = max(peak, ProcessThreads.named(loopName))
                processPeak = max(processPeak, ProcessThreads.count)
            }
            #expect(stub.snapshotsServed == 301)
            // A thread per panel would be 101 (and 201 with the pictures).
            #expect(peak == 1, "threads named \(loopName): \(peak) at most with 100 streams and snapshots")
            // And none elsewhere either: +100 for a thread per panel, while the suites sharing this
            // process (Swift Testing runs them in parallel) start and end a few threads of their own.
            #expect(processPeak < before + 50, "threads: \(before) before the streams, \(processPeak) at most")
            // Cancelling frees every stream's transfer and closes its connection.
            for stream in streams { stream.cancel() }
            #expect(await TestPatience.eventually(within: .seconds(3), every: .milliseconds(10)) { loop.transfersInFlight == 0 })
            #expect(await TestPatience.eventually(within: .seconds(3), every: .milliseconds(10)) { stub.openStreams == 0 })
        }
    }

    /// The stub answers a CGI it lacks as firmware does (200 `NAME is not defined`, then closes): the
    /// client takes it for a missing page, and the next request on the same panel still works.
    @Test func theStubAnswersAnUnknownCGIAsFirmwareDoes() async throws {
        let stub = try LoopbackHTTPStub(servers: 1)
        let loop = try HTTPEventLoop(name: "intercom.http.t")
        try await withCleanup({ stub.stop() }) {
            let raw = try await HTTPClient(configuration: .init(user: "", password: ""), loop: loop)
                .get("\(stub.baseURL(0))/cgi-bin/rsyslog_cgi?action=get")
            #expect(raw.status == 200 && raw.text == "rsyslog_cgi is not defined\r\n", "\(raw.status) \(raw.text)")
            let panel = try BewardPanel(name: "live", baseURL: stub.baseURL(0), user: "admin", password: "admin", httpLoop: loop)
            #expect(try await panel.syslogTarget() == nil)
            #expect(try await panel.rtspSettings() == nil)
            _ = try await panel.snapshot()
        }
    }

    /// A program's last step (`HTTPEventLoop.stopShared`): the loop stops with a transfer hanging on
    /// a silent panel, its thread ends at once, and the transfer fails as cancelled.
    @Test func aStoppedLoopEndsItsThreadWithATransferInFlight() async throws {
        let (silent, port) = try LoopbackListener.open(backlog: 8)
        let loop = try HTTPEventLoop(name: "intercom.http.t")
        try await withCleanup({ close(silent) }) {
            let panel = try BewardPanel(name: "silent", baseURL: "http://127.0.0.1:\(port)", user: "admin",
                                        password: "admin", timeout: .seconds(30), httpLoop: loop)
            let hung = Task { await panelError { () async throws(PanelError) in try await panel.snapshot() } }
            #expect(await TestPatience.eventually(within: .seconds(2), every: .milliseconds(10)) { loop.transfersInFlight == 1 })
            let stopping = ContinuousClock.now
            #expect(loop.stop(waiting: .seconds(2)), "the loop's thread did not end")
            #expect(ContinuousClock.now - stopping < .milliseconds(500))
            let error = await hung.value
            #expect(error != nil, "the hanging snapshot did not fail")
        }
    }

    @Test func aDeadPanelDoesNotDelayAnother() async throws {
        let stub = try LoopbackHTTPStub(servers: 1)
        // Accepts (the kernel completes the handshake from the backlog) and never answers.
        let (dead, deadPort) = try LoopbackListener.open(backlog: 8)
        let loop = try HTTPEventLoop(name: "intercom.http.t")
        try await withCleanup({ stub.stop(); close(dead) }) {
            let deadPanel = try BewardPanel(name: "dead", baseURL: "http://127.0.0.1:\(deadPort)", user: "admin",
                                            password: "admin", timeout: .seconds(2), httpLoop: loop)
            let live = try BewardPanel(name: "live", baseURL: stub.baseURL(0), user: "admin", password: "admin", httpLoop: loop)
            let started = ContinuousClock.now
            let hung = Task { await panelError { () async throws(PanelError) in try await deadPanel.snapshot() } }
            let deadStream = deadPanel.alarmStream()
            defer { deadStream.cancel() }
            #expect(await TestPatience.eventually(within: .seconds(2), every: .milliseconds(10)) { loop.transfersInFlight == 2 })
            for _ in 0..<10 {
                let start = ContinuousClock.now
                _ = try await live.snapshot()
                #expect(ContinuousClock.now - start < .milliseconds(500))
            }
            let error = await hung.value
            let waited = ContinuousClock.now - started
            guard case .timeout = error else {
                Issue.record("expected the dead panel's snapshot to time out, got \(String(describing: error))")
                return
            }
            // Its own limit ended it: neither sooner nor held up by the loop.
            #expect(waited >= .milliseconds(1900) && waited < .seconds(4), "timed out after \(waited)")
        }
    }

    @Test func aStreamThatFallsSilentEndsByItsOwnIdleLimit() async throws {
        // The stub answers a stream's headers and then says nothing: a panel that hangs mid-stream.
        let stub = try LoopbackHTTPStub(servers: 2)
        let loop = try HTTPEventLoop(name: "intercom.http.t")
        try await withCleanup({ stub.stop() }) {
            let streaming = try HTTPClient(configuration: .init(user: "", password: ""), loop: loop)
            let live = try BewardPanel(name: "live", baseURL: stub.baseURL(1), user: "admin", password: "admin", httpLoop: loop)
            let started = ContinuousClock.now
            let url = "\(stub.baseURL(0))/cgi-bin/alarmchangestate_cgi"
            let silent = Task { await Self.streamEnding(streaming, url, idle: .seconds(1)) }
            #expect(await TestPatience.eventually(within: .seconds(2), every: .milliseconds(10)) { stub.openStreams == 1 })
            for _ in 0..<5 {
                let start = ContinuousClock.now
                _ = try await live.snapshot()
                #expect(ContinuousClock.now - start < .milliseconds(500))
            }
            #expect(await silent.value == "timed out")
            let waited = ContinuousClock.now - started
            #expect(waited >= .milliseconds(900) && waited < .seconds(4), "the silent stream ended after \(waited)")
            #expect(loop.transfersInFlight == 0)
        }
    }

    @Test func cancellingFreesTheTransferAndTheQueue() async throws {
        let (dead, deadPort) = try LoopbackListener.open(backlog: 8)
        let loop = try HTTPEventLoop(name: "intercom.http.t")
        try await withCleanup({ close(dead) }) {
            let client = try HTTPClient(configuration: .init(user: "", password: ""), loop: loop)
            let url = "http://127.0.0.1:\(deadPort)/cgi-bin/images_cgi"
            let running = Task { await Self.failure(of: client, url) }
            #expect(await TestPatience.eventually(within: .seconds(2), every: .milliseconds(10)) { loop.transfersInFlight == 1 })
            // The client's second request waits behind the first: cancelling it takes it off the queue.
            let queued = Task { await Self.failure(of: client, url) }
            try await Task.sleep(for: .milliseconds(100))
            await Self.expectEndsCancelled(queued, "the queued request")
            #expect(loop.transfersInFlight == 1)
            await Self.expectEndsCancelled(running, "the running request")
            #expect(loop.transfersInFlight == 0)
        }
    }

    /// Cancels `task` and expects it to end `cancelled` within 500 ms.
    private static func expectEndsCancelled(_ task: Task<HTTPError?, Never>, _ what: String) async {
        let start = ContinuousClock.now
        task.cancel()
        let error = await task.value
        guard case .cancelled = error else {
            Issue.record("\(what) ended with \(String(describing: error)), not cancelled")
            return
        }
        #expect(ContinuousClock.now - start < .milliseconds(500), "\(what) took \(ContinuousClock.now - start)")
    }

    /// How a stream ended: "timed out", or what else happened.
    private static func streamEnding(_ client: HTTPClient, _ url: String, idle: Duration) async -> String {
        do {
            _ = try await client.stream(url, idleTimeout: idle, onChunk: { _ in true })
            return "ended without an error"
        } catch {
            if case .timedOut = error { return "timed out" }
            return "\(error)"
        }
    }

    /// How a GET ended: nil for an answer, else its error.
    private static func failure(of client: HTTPClient, _ url: String) async -> HTTPError? {
        do {
            _ = try await client.get(url, timeout: .seconds(30))
            return nil
        } catch {
            return error
        }
    }
}
