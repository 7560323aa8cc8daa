import Foundation
import IntercomBase
import IntercomPhone

extension Intercom {
    /// Calls a panel (`intercom call`): a look at the camera and a talk without anyone ringing.
    /// The peephole runs until the panel's own video arrives, as for a ringing call.
    func dial(panel name: String?, phone: any PhoneService) async throws -> JSONValue {
        let panel = try resolvePanel(name)
        guard let uri = panel.dialURI else {
            throw IntercomError.unknownPanel("panel \(panel.name) has no SIP address to call: set dial = sip:… in [panel \(panel.name)]")
        }
        let id = try await phone.call(uri, video: true)
        // The engine stopped while the phone placed it: the phone's stop ended it.
        guard !tasks.isEnded else { throw IntercomError.notStarted }
        // The phone's `outgoing` event may have been handled while we waited, or not yet.
        if let index = endedCalls.firstIndex(where: { $0.info.id == id }) {
            let reason = endedCalls[index].endReason
            endedCalls[index].announced = true
            throw IntercomError.callFailed("the call to \(panel.name) (\(uri)) ended at once: \(reason?.rawValue ?? "error")")
        }
        var session = calls[id] ?? newSession(
            CallInfo(id: id, direction: .outgoing, from: "", to: uri, remoteHost: nil, offersVideo: true),
            panel: panel, stage: .dialing)
        session.panel = panel
        session.announced = true
        calls[id] = session
        publish(.callOutgoing(session.ref, to: uri))
        startPeephole(id, panel: panel, phone: phone)
        return .object([("call", .string(id.rawValue)), ("panel", .string(panel.name)), ("to", .string(uri))])
    }
}
