import Foundation
import IntercomHTTP
import Synchronization

/// One request for `alarmchangestate_cgi`, from its answer to its end: whether it became a stream
/// (a valid line, or open past `confirmAfter`), or said it has none. curl's thread (`opened`,
/// `feed`) and the confirm timer race, so one lock holds the flags and the policy's events are
/// yielded under it: `.connected` always comes before the attempt's first alarm.
final class AlarmAttempt: Sendable {
    private struct State {
        var open = false
        var confirmed = false
        var notDefined = false
        /// The panel's first words, kept for the report when it has no stream.
        var firstWords = ""
        /// Bytes arrived since the silence watch last looked.
        var heard = false
        /// Set by the silence watch when it ended the transfer: what the attempt counts as.
        var aborted: AlarmReconnectPolicy.Outcome?
    }

    private let state = Mutex(State())
    private let splitter = LineSplitter()
    private let policy: SharedAlarmPolicy
    private let continuation: AsyncStream<AlarmStream.Event>.Continuation

    init(policy: SharedAlarmPolicy, continuation: AsyncStream<AlarmStream.Event>.Continuation) {
        self.policy = policy
        self.continuation = continuation
    }

    func opened(status: Int) {
        state.withLock { $0.open = (200..<300).contains(status) }
    }

    /// The timer ran out with the answer still open: a quiet stream is a stream.
    func confirmIfOpen() {
        state.withLock { s in
            guard s.open, !s.confirmed, !s.notDefined else { return }
            confirm(&s)
        }
    }

    var isConfirmed: Bool { state.withLock { $0.confirmed } }

    /// Whether bytes arrived since the last call.
    func takeHeard() -> Bool {
        state.withLock { s in
            defer { s.heard = false }
            return s.heard
        }
    }

    func abort(as outcome: AlarmReconnectPolicy.Outcome) { state.withLock { $0.aborted = outcome } }

    var aborted: AlarmReconnectPolicy.Outcome? { state.withLock { $0.aborted } }

    /// False stops the transfer: firmware that said "is not defined" has nothing more to say.
    func feed(_ chunk: Data) -> Bool {
        let lines = splitter.feed(chunk)
        return state.withLock { s in
            s.heard = true
            if !s.confirmed, s.firstWords.count < 120 {
                s.firstWords += String(decoding: chunk.prefix(120), as: UTF8.self)
            }
            for line in lines {
                if let alarm = PanelAlarm(line: line) {
                    if !s.confirmed { confirm(&s) }
                    continuation.yield(.alarm(alarm))
                } else if !s.confirmed, line.contains("is not defined") {
                    s.notDefined = true
                    return false
                }
            }
            if !s.confirmed, s.firstWords.contains("is not defined") {
                s.notDefined = true
                return false
            }
            return true
        }
    }

    /// The answer ended normally (EOF, or a finished non-2xx answer).
    func outcome(afterAnswer response: HTTPResponse, panel: BewardPanel) -> AlarmReconnectPolicy.Outcome {
        let s = state.withLock { $0 }
        if s.confirmed { return .streamed }
        if s.open { return .noStream(noStream(panel: panel, words: s.firstWords)) }
        do {
            _ = try panel.check(response, cgi: "alarmchangestate_cgi")
            return .noStream(noStream(panel: panel, words: response.text))
        } catch .unsupported {
            return .noStream(noStream(panel: panel, words: response.text))
        } catch {
            return .failed(error)
        }
    }

    /// The transfer failed: after a stream that is routine, before any answer it is a failure.
    func outcome(afterError error: PanelError, panel: BewardPanel) -> AlarmReconnectPolicy.Outcome {
        let s = state.withLock { $0 }
        if s.confirmed { return .streamed }
        if s.notDefined { return .noStream(noStream(panel: panel, words: s.firstWords)) }
        return .failed(error)
    }

    private func noStream(panel: BewardPanel, words: String) -> PanelError {
        let said = words.split(whereSeparator: \.isNewline).first.map {
            $0.trimmingCharacters(in: .whitespaces)
        } ?? ""
        let quoted = said.isEmpty ? "closed it without a line" : "answered \"\(said.prefix(80))\""
        return .noAlarmStream(panel: panel.name, said: quoted)
    }

    private func confirm(_ s: inout State) {
        s.confirmed = true
        let events = policy.confirmed()
        events.forEach { continuation.yield($0) }
    }
}
