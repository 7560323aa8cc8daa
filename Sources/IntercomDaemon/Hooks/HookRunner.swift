import Foundation
import IntercomCore
import IntercomBase

/// Runs `[hooks] on_<event>` programs for events: a few at a time, each with a timeout, never
/// holding up the caller (calls go on whatever a hook does). Failures are logged.
public actor HookRunner {
    private var hooks: [String: String]
    private let logger: Logger
    private let timeout: Duration
    private let maxConcurrent: Int
    private let maxWaiting: Int
    private let baseEnvironment: [String: String]
    /// `[hooks] snapshot_wait_ms`: how long `on_call_incoming` waits for the call's first picture.
    public private(set) var snapshotWait: Duration
    private var running = 0
    private var waiting: [CheckedContinuation<Bool, Never>] = []
    /// The hooks running in the background (`fire`, `background`), each to its end: `settle`
    /// awaits them, since a hook's timeout is enforced only while we are there to enforce it.
    private nonisolated let backgroundHooks = TaskOwner("hooks")

    public init(hooks: [String: String], logger: Logger, timeout: Duration = .seconds(10), maxConcurrent: Int = 3,
                maxWaiting: Int = 32, baseEnvironment: [String: String] = ProcessInfo.processInfo.environment,
                snapshotWait: Duration = .milliseconds(HookSettings.defaultSnapshotWaitMs)) {
        self.hooks = hooks
        self.snapshotWait = snapshotWait
        self.logger = logger
        self.timeout = timeout
        self.maxConcurrent = maxConcurrent
        self.maxWaiting = maxWaiting
        self.baseEnvironment = baseEnvironment
    }

    /// A reloaded config's hooks; runs in progress finish with the old program.
    public func update(_ hooks: [String: String]) { self.hooks = hooks }

    /// A reloaded `[hooks]` section: the programs and the picture wait.
    public func update(_ settings: HookSettings) {
        hooks = settings.programs
        snapshotWait = .milliseconds(settings.snapshotWaitMs)
    }

    /// How long the event's hook should wait for the call's first picture: only an incoming
    /// call's, whose picture is still on its way when the call rings.
    public func pictureWait(for event: IntercomEvent) -> Duration {
        if case .callIncoming = event.kind { snapshotWait } else { .zero }
    }

    public func hasHook(for event: IntercomEvent) -> Bool { hooks[event.name] != nil }

    /// Starts the event's hook, if any, in the background.
    public nonisolated func fire(_ event: IntercomEvent, snapshot: String?, clip: String? = nil) {
        background { _ = await self.run(event, snapshot: snapshot, clip: clip) }
    }

    /// Runs `body` (a hook and what it waits for first) among the hooks in the background.
    public nonisolated func background(_ body: @escaping @Sendable () async -> Void) {
        backgroundHooks.start(nil, body)
    }

    /// Returns once every hook started in the background has ended (each within its timeout);
    /// none starts after.
    public func settle() async { await backgroundHooks.drain() }

    /// Runs the event's hook to its end; nil when there is none.
    public func run(_ event: IntercomEvent, snapshot: String?, clip: String? = nil) async -> HookOutcome? {
        guard let program = hooks[event.name] else { return nil }
        guard await acquire() else {
            logger.warning("hook \(program) for \(event.name) \(HookOutcome.dropped)")
            return .dropped
        }
        defer { release() }
        let environment = HookEnvironment.make(event: event, snapshot: snapshot, clip: clip, base: baseEnvironment)
        let outcome: HookOutcome
        switch HookProcess.spawn(program: program, arguments: [event.name], environment: environment) {
        case .failure(let error):
            outcome = .spawnFailed(error.message)
        case .success(let pid):
            outcome = await HookProcess.wait(pid, timeout: timeout)
        }
        if outcome.succeeded {
            logger.debug("hook \(program) for \(event.name) \(outcome)")
        } else {
            logger.warning("hook \(program) for \(event.name) \(outcome)")
        }
        return outcome
    }

    private func acquire() async -> Bool {
        if running < maxConcurrent {
            running += 1
            return true
        }
        guard waiting.count < maxWaiting else { return false }
        // The slot is handed over by `release`, so `running` stays counted.
        return await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume(returning: true)
        }
    }
}
