import Foundation
import IntercomEngine
@testable import IntercomSimulator
import Synchronization

/// Collects values from an async sequence in the background so tests can wait with a deadline.
final class PanelEventRecorder<Element: Sendable>: Sendable {
    private final class Storage: Sendable {
        let items = Mutex<[Element]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        task = Task { [storage] in
            do {
                for try await item in sequence { storage.items.withLock { $0.append(item) } }
            } catch {}
        }
    }

    var all: [Element] { storage.items.withLock { $0 } }

    /// Waits until `predicate` holds for the recorded values, or the timeout passes.
    // A deadline, not a pause: generous so a loaded 2-core machine (CPU-heavy suites run in parallel) does not fail it.
    func wait(timeout: Duration = .seconds(20), until predicate: ([Element]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(all) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return predicate(all)
    }

    func cancel() { task.cancel() }
}

/// A started simulated panel and a client pointed at it.
struct PanelFixture {
    let server: SimulatedPanelHTTPServer
    let panel: BewardPanel

    init(
        _ options: SimulatedPanelOptions = .init(),
        user: String = "admin",
        password: String = "admin",
        auth: PanelAuth = .digest,
        model: PanelModel = .auto,
        timeout: Duration = .seconds(3),
        maxBodyBytes: Int = 8 << 20
    ) throws {
        server = SimulatedPanelHTTPServer(options: options)
        try server.start()
        panel = try BewardPanel(
            name: "test", baseURL: server.baseURL, user: user, password: password,
            auth: auth, model: model, timeout: timeout, maxBodyBytes: maxBodyBytes)
    }
}

/// Runs `body` and returns the PanelError it threw, or nil.
func panelError<T>(_ body: () async throws(PanelError) -> T) async -> PanelError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
