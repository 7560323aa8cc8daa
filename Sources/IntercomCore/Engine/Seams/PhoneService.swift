import IntercomBase
import IntercomPhone

/// What the engine asks of the SIP phone: the calls' requests, its events and its call video.
/// `Phone` (liblinphone on its thread) is the one production phone; the engine tests drive a fake
/// that rings and reports call states on demand, so a policy is checked without a SIP stack.
public protocol PhoneService: Sendable {
    /// Everything the phone reports, in order; finishes when the phone stops.
    var events: AsyncStream<PhoneEvent> { get }
    /// Decoded call video (the peephole stops once a call's own video arrives here).
    var video: VideoFrameHub { get }
    /// The addresses really bound.
    var listening: [ListenAddress] { get }

    func answer(_ id: CallID, video: Bool, recordTo: String?) async throws
    func decline(_ id: CallID, reason: DeclineReason) async throws
    func hangup(_ id: CallID) async throws
    /// Ends a call whose caller called again (reported as the caller's hang-up, or missed).
    func replace(_ id: CallID) async throws
    func call(_ uri: String, video: Bool) async throws -> CallID
    func transfer(_ id: CallID, to uri: String) async throws
    /// Attended transfer: hold the caller, then hand it to the answered consultation `other`.
    func hold(_ id: CallID, _ held: Bool) async throws
    func transfer(_ id: CallID, toCallOf other: CallID) async throws
    func sendDTMF(_ id: CallID, digits: String, timing: DTMFTiming) async throws
    func setMicrophoneMuted(_ muted: Bool, call: CallID?) async throws
    func audioDevices() async throws -> [AudioDevice]
    func setOutputDevice(_ deviceID: String, call: CallID?) async throws
    func refreshRegistration() async throws
    /// Ends every call; `events` finishes. Safe to call more than once.
    func stop() async
}

extension PhoneService {
    func decline(_ id: CallID) async throws { try await decline(id, reason: .declined) }
    func setMicrophoneMuted(_ muted: Bool) async throws { try await setMicrophoneMuted(muted, call: nil) }
}

extension Phone: PhoneService {}
