import Foundation
import IntercomBase
import Synchronization

/// Where answered calls are recorded (`[panel] record = calls | rings`). The process that
/// writes the journal sets `folder`; the core names a clip file when it answers (liblinphone
/// must be told at answer) and the journal recorder takes the name for the call's entry. Without
/// a folder (no journal, or another process writes it) nothing is recorded.
public final class CallClips: Sendable {
    private struct State {
        var folder: String?
        var named: [CallID: String] = [:]
        var order: [CallID] = []
    }
    private let state = Mutex(State())
    /// Names not taken (the journal writer never saw the answer) are forgotten after this many.
    private let limit = 16

    public init() {}

    /// The journal's pictures folder, or nil to record nothing.
    public func setFolder(_ folder: String?) { state.withLock { $0.folder = folder } }

    /// A new clip file for an answered call, or nil when recording is off or impossible (the
    /// reason is logged: the call itself goes on unrecorded).
    func name(for call: CallID, mode: RecordMode, logger: Logger) -> String? {
        guard mode.recordsCalls, let folder = state.withLock({ $0.folder }) else { return nil }
        let path: String
        do {
            path = try Journal.newClipFile(in: folder, slot: .call, create: false)
        } catch {
            logger.warning("call \(call) is not recorded: \(error)")
            return nil
        }
        state.withLock { state in
            if state.named.updateValue(path, forKey: call) == nil { state.order.append(call) }
            while state.order.count > limit { state.named.removeValue(forKey: state.order.removeFirst()) }
        }
        return path
    }

    /// The clip named for `call`, handed over once.
    public func take(_ call: CallID) -> String? {
        state.withLock { state in
            state.order.removeAll { $0 == call }
            return state.named.removeValue(forKey: call)
        }
    }
}
