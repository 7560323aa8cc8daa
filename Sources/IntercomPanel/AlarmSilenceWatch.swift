import Foundation
import IntercomHTTP

/// Beside each alarm-stream attempt: confirms a stream that stays open quietly, then, since
/// panels send no keep-alives, checks a silent stream through the panel's other connection
/// instead of dropping it. A rebooted panel never closes our old connection (it just stops
/// writing), so its `UpTime` going back is the sign; no answer at all means it is gone.
enum AlarmSilenceWatch {
    static func run(
        attempt: AlarmAttempt, panel: BewardPanel, options: AlarmStream.Options,
        transfer: Task<Result<HTTPResponse, HTTPError>, Never>
    ) async {
        do { try await Task.sleep(for: options.confirmAfter) } catch { return }
        attempt.confirmIfOpen()
        guard attempt.isConfirmed else { return }
        var lastUptime = try? await panel.uptime()
        _ = attempt.takeHeard()
        while true {
            do { try await Task.sleep(for: options.silenceCheck) } catch { return }
            if attempt.takeHeard() { continue }  // lines flowed: nothing to check
            do {
                let uptime = try await panel.uptime()
                if let uptime, let before = lastUptime, uptime < before {
                    attempt.abort(as: .streamed)  // rebooted: reopen, and say connected again
                    transfer.cancel()
                    return
                }
                if let uptime { lastUptime = uptime }
            } catch .cancelled {
                return
            } catch .unreachable, .timeout {
                let error = PanelError.unreachable("panel \(panel.name) stopped answering while its alarm stream was silent")
                attempt.abort(as: .failed(error))
                transfer.cancel()
                return
            } catch {
                return  // cannot read it (a restricted account …): the idle timeout remains
            }
        }
    }
}
