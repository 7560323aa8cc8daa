import Foundation
import IntercomBase

extension Intercom {
    /// How a wait for a call's state ended.
    enum CallWait { case reached, ended, timedOut }

    /// Waits until the call satisfies `condition`, the call ends, or `seconds` pass, looking every
    /// 20 ms (calls change state in this actor, between its awaits).
    func wait(for id: CallID, upTo seconds: TimeInterval, until condition: (CallSession) -> Bool) async throws -> CallWait {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            guard let session = calls[id] else { return .ended }
            if condition(session) { return .reached }
            guard Date() < deadline else { return .timedOut }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}
