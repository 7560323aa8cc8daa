import Foundation
import IntercomBase
import IntercomPhone

extension Intercom {
    /// How long an automatic opening in a call waits for the call to be confirmed.
    static let confirmationWait: TimeInterval = 5

    /// An opening nobody at a keyboard asked for (guest mode, a hook) goes ahead only in a
    /// confirmed call — the caller's ACK and media arrived, so it is the panel at the address it
    /// called from — and at most once per `auto_open_interval` per panel. A refusal is reported
    /// and journaled like any failed opening.
    func admitAutomaticOpen(of panel: PanelConfig, door: Door, by trigger: DoorTrigger, call: CallSession?) async throws {
        do {
            if let call, call.info.direction == .incoming {
                try await waitUntilConfirmed(call.info.id)
            }
            let now = clock.date
            if panel.autoOpenInterval > 0, let last = lastAutomaticOpen[panel.name],
               now.timeIntervalSince(last) < panel.autoOpenInterval {
                throw IntercomError.refused(
                    "automatic openings of \(panel.name) are limited to one per \(Self.seconds(panel.autoOpenInterval)) (auto_open_interval in [panel \(panel.name)])")
            }
            lastAutomaticOpen[panel.name] = now
        } catch {
            reportDoor(panel: panel.name, call: call?.ref, door: door, method: "none", by: trigger, error: error)
            throw error
        }
    }

    /// Returns once the call is confirmed; throws when it ends or is not confirmed in time.
    private func waitUntilConfirmed(_ id: CallID) async throws {
        switch try await wait(for: id, upTo: Self.confirmationWait, until: \.confirmed) {
        case .reached:
            return
        case .ended:
            throw IntercomError.noCall("confirmed")
        case .timedOut:
            throw IntercomError.refused(
                "call \(id) is not confirmed (no ACK or no media from the caller): automatic openings wait for it")
        }
    }

    /// An answered call that must prove it is the panel (guest mode's; a panel's call that would
    /// replace its earlier conversation): without a confirmation within the wait, it was no panel
    /// that can hear us (a blind or forged INVITE), so it is hung up. `call` names it in the log
    /// line, `outcome` says what that leaves as it is.
    func hangUpUnlessConfirmed(_ id: CallID, phone: any PhoneService, call: String, outcome: String) async {
        guard (try? await wait(for: id, upTo: Self.confirmationWait, until: \.confirmed)) == .timedOut else { return }
        logger.warning("\(call) was not confirmed (no ACK or no media) within \(Self.seconds(Self.confirmationWait)); hanging up, \(outcome)")
        try? await ending(id) { try await phone.hangup(id) }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
