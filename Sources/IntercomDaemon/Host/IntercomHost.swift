/// The one host of the engine, for the daemon and for a screen with its own engine: starts the
/// stages of its list in order and takes the started ones down in reverse, at the end or at once
/// when a stage fails to start, so nothing a failed start left running outlives it.
public actor IntercomHost {
    private let stages: [HostStage]
    private let parts: any HostParts
    private var started: [HostStage] = []

    public init(_ stages: [HostStage], parts: any HostParts) {
        self.stages = stages
        self.parts = parts
    }

    /// Starts every stage; the first that fails is stopped itself (it may have made half of what
    /// it makes), then those before it in reverse, and its error is thrown as it came.
    public func start() async throws {
        for stage in stages {
            do {
                try await parts.start(stage)
            } catch {
                await parts.stop(stage)
                await stop()
                throw error
            }
            started.append(stage)
        }
    }

    /// Takes the started stages down, the last started first. Stopping twice stops nothing twice.
    public func stop() async {
        while let stage = started.popLast() {
            await parts.stop(stage)
        }
    }

    /// The stages up now, in the order they started.
    public var running: [HostStage] { started }
}
