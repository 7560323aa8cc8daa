import Foundation
import IntercomBase
import IntercomPhone

extension Intercom {
    /// Calls a panel (`intercom call`, `OutgoingCallFlow`).
    func dial(panel name: String?, phone: any PhoneService) async throws -> JSONValue {
        try await OutgoingCallFlow(phone: phone).dial(panel: name, on: self)
    }

    /// Waits until the call satisfies `condition`, ends, or `seconds` pass (`CallWait`).
    func wait(for id: CallID, upTo seconds: TimeInterval, until condition: (CallSession) -> Bool) async throws -> CallWait {
        try await CallWait.wait(for: id, upTo: seconds, until: condition, on: self)
    }

    /// A new call's session. One that comes while the engine stops starts no task: `stop` has
    /// already ended the others'.
    func newSession(_ info: CallInfo, panel: PanelConfig?, operatorDoor: DoorListing? = nil, stage: CallSession.Stage,
                    replacing: [CallID] = [], announced: Bool = true) -> CallSession {
        let session = CallSession(info: info, panel: panel, operatorDoor: operatorDoor, stage: stage, since: clock.date,
                                  replacing: replacing, announced: announced, census: census)
        if tasks.isEnded { session.tasks.close() }
        return session
    }

    /// The session of a call we placed whose `outgoing` event the phone has not delivered yet.
    func placed(_ id: CallID, to uri: String, video: Bool) -> CallSession {
        newSession(CallInfo(id: id, direction: .outgoing, from: "", to: uri, remoteHost: nil, offersVideo: video),
                   panel: nil, stage: .dialing, announced: false)
    }

    func answer(_ id: CallID, by: IntercomEvent.AnsweredBy, phone: any PhoneService) async throws {
        calls[id]?.answering(by: by, who: who(answering: by))
        do {
            let clip = clips.name(for: id, mode: calls[id]?.panel?.record ?? .off, logger: logger)
            do {
                try await phone.answer(id, video: true, recordTo: clip)
            } catch {
                if let clip, clips.take(id) != nil { unlink(clip) }
                throw error
            }
        } catch {
            calls[id]?.answerFailed()
            throw error
        }
        await SiteCallFlow().answered(id, on: self)
        if config.sip.declineOthersOnAnswer {
            for other in calls.values where other.info.id != id && other.stage == .ringing {
                logger.info("call \(other.info.id) declined: call \(id) was answered and [sip] decline_others = on")
                try? await phone.decline(other.info.id)
            }
        }
    }

    func autoAnswer(_ id: CallID, phone: any PhoneService) async {
        guard calls[id]?.stage == .ringing else { return }
        do {
            try await answer(id, by: .auto, phone: phone)
        } catch {
            logger.warning("auto-answer of call \(id) failed: \(error)")
        }
    }
}
