import IntercomCore
import IntercomPhone

extension BenchDaemon {
    /// One call from `caller`: placed, answered by the daemon, hung up by the caller. Returns the
    /// index of the line after its `call_ended`, or nil when the daemon did not answer or end it
    /// within 5 s each (the caller hangs up anyway, so the next call starts clean).
    func answeredCall(from caller: Phone, after cursor: Int) async throws -> Int? {
        let id = try await caller.call(uri, video: false)
        guard let answered = await process.waitLine(containing: "\"call_answered\"", after: cursor, timeout: 5) else {
            try? await caller.hangup(id)
            return nil
        }
        try? await caller.hangup(id)
        return await process.waitLine(containing: "\"call_ended\"", after: answered.index, timeout: 5).map { $0.index + 1 }
    }
}
