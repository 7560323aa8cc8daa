import Foundation
import IntercomBase
import IntercomCore
import IntercomPhone
import Synchronization

/// The phone in engine tests: no SIP stack. The test makes calls ring (`ring`) and move on
/// (`establish`, `confirm`, `end`); the fake records what the engine asked (`requests`) and
/// answers as liblinphone does: an answered call is established (and, by default, confirmed),
/// a declined or hung-up one ends with that reason, a replaced one ends as the caller's hang-up.
package final class FakePhone: PhoneService {
    /// One request from the engine.
    package enum Request: Sendable, Equatable, CustomStringConvertible {
        case answer(CallID, recordTo: String?)
        case decline(CallID, DeclineReason)
        case hangup(CallID)
        case replace(CallID)
        case call(String)
        case transfer(CallID, to: String)
        case hold(CallID, Bool)
        /// Attended transfer: the first call handed to the other side of the second.
        case transferToCall(CallID, CallID)
        case dtmf(CallID, String)
        case mute(Bool, call: CallID?)
        case output(String, call: CallID?)
        case refreshRegistration

        package var description: String {
            switch self {
            case .answer(let id, let clip): "answer \(id)" + (clip.map { " recording to \($0)" } ?? "")
            case .decline(let id, let reason): "decline \(id) (\(reason))"
            case .hangup(let id): "hangup \(id)"
            case .replace(let id): "replace \(id)"
            case .call(let uri): "call \(uri)"
            case .transfer(let id, let uri): "transfer \(id) to \(uri)"
            case .hold(let id, let held): (held ? "hold " : "resume ") + id.rawValue
            case .transferToCall(let id, let other): "transfer \(id) to the other side of \(other)"
            case .dtmf(let id, let digits): "DTMF \(digits) in \(id)"
            case .mute(let muted, let id): "mute \(muted) \(id.map { "in \($0)" } ?? "for every call")"
            case .output(let device, let id): "output \(device) \(id.map { "in \($0)" } ?? "for every call")"
            case .refreshRegistration: "refresh registration"
            }
        }
    }

    /// What an `answer` leads to by itself.
    package enum AnswerOutcome: Sendable {
        /// Established, then confirmed (the caller's ACK and media came): a real panel.
        case confirmed
        /// Established only: a blind or forged INVITE whose caller never sends an ACK.
        case establishedOnly
        /// Nothing: the test reports the call's progress itself.
        case silent
    }

    private struct State {
        var nextCall = 0
        /// Calls the fake knows, and whether each was established.
        var calls: [CallID: Bool] = [:]
        var answerOutcome = AnswerOutcome.confirmed
        var failures: [String: PhoneError] = [:]
    }

    package let events: AsyncStream<PhoneEvent>
    private let sink = PhoneEventQueue()
    package let video = VideoFrameHub()
    package let listening = [ListenAddress(transport: .udp, host: "127.0.0.1", port: 5060)]
    /// Everything the engine asked, in order.
    package let requests = Ledger<Request>()
    private let state = Mutex(State())

    package init() {
        events = sink.stream
        sink.yield(.listening(listening))
    }

    /// Returns once the engine has handled every event reported so far (it waits for the next).
    /// What those events started in tasks of their own may still be running.
    package func handled() async { await sink.handled() }

    package var answerOutcome: AnswerOutcome {
        get { state.withLock { $0.answerOutcome } }
        set { state.withLock { $0.answerOutcome = newValue } }
    }

    /// The next request of this kind (`answer`, `hangup`, `dtmf`, …) fails with `error`.
    package func failNext(_ kind: String, with error: PhoneError) {
        state.withLock { $0.failures[kind] = error }
    }

    // MARK: - What the test makes happen

    /// An INVITE from `from` arrives from the address `source` (nil: unknown); returns its id.
    /// `sipCallID`: its Call-ID, the same at every desk a proxy forked it to.
    @discardableResult
    package func ring(from: String, source: String? = nil, contactHost: String? = nil, video: Bool = true,
                      sipCallID: String? = nil) -> CallID {
        let id = newCall()
        let host = contactHost ?? SIPURI(parsing: from)?.host
        sink.yield(.incoming(CallInfo(id: id, direction: .incoming, from: from, to: "sip:intercom@127.0.0.1",
                                      remoteHost: host, source: source, offersVideo: video, sipCallID: sipCallID)))
        return id
    }

    /// Media runs in both directions (after our answer, or the panel took our call).
    package func establish(_ id: CallID, videoCodec: String? = "H264") {
        state.withLock { $0.calls[id] = true }
        sink.yield(.established(id, CallMedia(audioCodec: "PCMU", videoCodec: videoCodec)))
    }

    /// The caller's ACK and media arrived.
    package func confirm(_ id: CallID) { sink.yield(.confirmed(id)) }

    /// The call ends (the caller hung up, by default).
    package func end(_ id: CallID, reason: CallEndReason = .remoteHangup, detail: String? = nil) {
        guard state.withLock({ $0.calls.removeValue(forKey: id) }) != nil else { return }
        sink.yield(.ended(id, reason: reason, duration: 0, detail: detail))
    }

    /// Any other event, as the phone would report it.
    package func report(_ event: PhoneEvent) { sink.yield(event) }

    // MARK: - PhoneService

    package func answer(_ id: CallID, video: Bool, recordTo: String?) async throws {
        try record(.answer(id, recordTo: recordTo), kind: "answer", call: id)
        switch answerOutcome {
        case .confirmed:
            establish(id)
            confirm(id)
        case .establishedOnly:
            establish(id)
        case .silent:
            break
        }
    }

    package func decline(_ id: CallID, reason: DeclineReason) async throws {
        try record(.decline(id, reason), kind: "decline", call: id)
        end(id, reason: .declined)
    }

    package func hangup(_ id: CallID) async throws {
        try record(.hangup(id), kind: "hangup", call: id)
        end(id, reason: .hangup)
    }

    package func replace(_ id: CallID) async throws {
        try record(.replace(id), kind: "replace", call: id)
        let established = state.withLock { $0.calls[id] ?? false }
        end(id, reason: established ? .remoteHangup : .missed)
    }

    package func call(_ uri: String, video: Bool) async throws -> CallID {
        try record(.call(uri), kind: "call", call: nil)
        let id = newCall()
        sink.yield(.outgoing(CallInfo(id: id, direction: .outgoing, from: "sip:intercom@127.0.0.1", to: uri,
                                      remoteHost: SIPURI(parsing: uri)?.host, offersVideo: video)))
        return id
    }

    package func transfer(_ id: CallID, to uri: String) async throws {
        try record(.transfer(id, to: uri), kind: "transfer", call: id)
    }

    package func hold(_ id: CallID, _ held: Bool) async throws {
        try record(.hold(id, held), kind: "hold", call: id)
    }

    package func transfer(_ id: CallID, toCallOf other: CallID) async throws {
        try record(.transferToCall(id, other), kind: "transferToCall", call: id)
    }

    package func sendDTMF(_ id: CallID, digits: String, timing: DTMFTiming) async throws {
        try record(.dtmf(id, digits), kind: "dtmf", call: id)
        sink.yield(.dtmfSent(id, digits: digits))
    }

    package func setMicrophoneMuted(_ muted: Bool, call: CallID?) async throws {
        try record(.mute(muted, call: call), kind: "mute", call: call)
    }

    package func audioDevices() async throws -> [AudioDevice] { [] }

    package func setOutputDevice(_ deviceID: String, call: CallID?) async throws {
        try record(.output(deviceID, call: call), kind: "output", call: call)
    }

    package func refreshRegistration() async throws {
        try record(.refreshRegistration, kind: "refreshRegistration", call: nil)
    }

    package func stop() async {
        let open = state.withLock { s -> [CallID] in
            defer { s.calls = [:] }
            return Array(s.calls.keys)
        }
        for id in open.sorted() { sink.yield(.ended(id, reason: .hangup, duration: 0, detail: nil)) }
        sink.finish()
    }

    // MARK: -

    private func newCall() -> CallID {
        state.withLock { s in
            s.nextCall += 1
            let id = CallID("fake\(s.nextCall)")
            s.calls[id] = false
            return id
        }
    }

    /// Records the request; throws the failure set for its kind, or `noSuchCall` as the real
    /// phone does for a call it does not hold.
    private func record(_ request: Request, kind: String, call: CallID?) throws {
        let failure = state.withLock { s -> PhoneError? in
            if let failure = s.failures.removeValue(forKey: kind) { return failure }
            if let call, s.calls[call] == nil { return .noSuchCall(call) }
            return nil
        }
        requests.append(request)
        if let failure { throw failure }
    }
}
