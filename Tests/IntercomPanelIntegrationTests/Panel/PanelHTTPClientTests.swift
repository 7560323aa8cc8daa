import Foundation
import Synchronization
@testable import IntercomSimulator
import Testing
import IntercomHTTP
import IntercomPanel
import IntercomImaging
import IntercomTestSupport

@Suite struct PanelHTTPClientTests {
    @Test func streamDeliversChunksAndStopsOnCancel() async throws {
        let server = SimulatedPanelHTTPServer()
        try server.start()
        defer { server.stop() }
        let client = try HTTPClient(configuration: .init(user: "admin", password: "admin"))
        let (body, continuation) = AsyncStream.makeStream(of: Data.self)
        let chunks = PanelEventRecorder(body)
        defer { chunks.cancel() }
        let transfer = Task {
                do {
                    _ = try await client.stream(
                        "\(server.baseURL)/cgi-bin/alarmchangestate_cgi?channel=0",
                        idleTimeout: .seconds(10),
                        onChunk: { continuation.yield($0); return true })
                } catch {
                    #expect((error as? HTTPError)?.description == HTTPError.cancelled.description)
                }
                continuation.finish()
            }
        #expect(await chunks.wait { _ in server.alarmStreamCount == 1 })
        server.emitAlarm(.motion, active: true)
        #expect(await chunks.wait { String(decoding: $0.reduce(Data(), +), as: UTF8.self).contains("MotionDetection;1") })
        let start = ContinuousClock.now
        transfer.cancel()
        // Task cancellation takes the transfer out of the event loop's multi handle at once.
        #expect(await chunks.wait { _ in server.alarmStreamCount == 0 })
        #expect(ContinuousClock.now - start < .seconds(3))
    }

    @Test func aChunkTheSinkRefusesEndsTheStream() async throws {
        let server = SimulatedPanelHTTPServer()
        try server.start()
        defer { server.stop() }
        let client = try HTTPClient(configuration: .init(user: "admin", password: "admin"))
        let offered = Mutex(0)
        // The alarm stream never ends by itself: only the refusal (a full disk, for an export) can end it.
        let transfer = Task { () -> Bool in
            do {
                _ = try await client.stream("\(server.baseURL)/cgi-bin/alarmchangestate_cgi?channel=0", idleTimeout: .seconds(10),
                                            onChunk: { _ in offered.withLock { $0 += 1 }; return false })
                return false
            } catch {
                return true
            }
        }
        #expect(await TestPatience.eventually(within: .seconds(5), every: .milliseconds(10)) { server.alarmStreamCount == 1 })
        server.emitAlarm(.motion, active: true)
        #expect(await transfer.value, "a refused chunk did not end the stream")
        #expect(offered.withLock { $0 } == 1, "chunks offered after the refusal")
        #expect(await TestPatience.eventually(within: .seconds(5), every: .milliseconds(10)) { server.alarmStreamCount == 0 })
    }

    @Test func httpsToAPlainServerFailsAsUnreachable() async throws {
        let server = SimulatedPanelHTTPServer()
        let port = try server.start()
        defer { server.stop() }
        let panel = try BewardPanel(name: "tls", baseURL: "https://127.0.0.1:\(port)", user: "admin", password: "admin", insecure: true)
        let error = await panelError { () async throws(PanelError) in try await panel.snapshot() }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }
}
