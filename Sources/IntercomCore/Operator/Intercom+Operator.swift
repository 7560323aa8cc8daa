import Foundation
import IntercomBase
import IntercomOperator
import IntercomPhone
import IntercomModel

/// Operator doors beside the panels: listed from each logged-in operator's address list, opened
/// through its API (`address/openDoor`) outside a call, and by the door's DTMF digit in a call
/// that came from the operator's panel through the `[sip] account` (the flat's `4…` account).
extension Intercom {
    /// How often the background refresh asks each operator for its doors.
    static let operatorRefreshInterval: TimeInterval = 300
    /// A call from a domophone the list lacks asks again, but not more often than this.
    static let operatorOnDemandInterval: TimeInterval = 60
    /// What opens an operator's door in its own call: SmartYard's panels take the door's DTMF
    /// digit, `1` unless the operator set another (only its push message says, which we never get).
    static let operatorDTMFDigit = "1"

    /// Every door a front end can open: the panels' main doors, then the operators' doors. Faces
    /// read it with the `doors` command (and in `status`).
    nonisolated func doorList(panels: [String]) -> [DoorListing] {
        panels.map(DoorListing.panel) + operatorDoors.doors
    }

    /// Fetches each configured operator's doors; a failure is logged and the old list kept.
    /// Never throws: a missing login or an unreachable operator must not stop the daemon.
    public func refreshOperatorDoors() async {
        let operators = config.operators
        operatorDoors.keep(only: operators.map(\.name))
        for op in operators {
            do {
                guard let token = try operatorTokens.load(op.name)?.token else {
                    logger.notice("operator \(op.name): not logged in, so its doors and calls are unknown; run 'intercom login \(op.name)'")
                    operatorDoors.replace(op.name, with: [], at: clock.date)
                    continue
                }
                let client = try services.operatorClient(op, token, operatorTokens)
                operatorDoors.replace(op.name, with: DoorListing.operatorDoors(op.name, try await client.addresses()),
                                      at: clock.date)
                await refreshPanelCameras(op.name, client: client)
            } catch {
                logger.warning("operator \(op.name): its doors were not refreshed: \(error)")
            }
        }
    }

    /// The background refresh: at once, then every `operatorRefreshInterval`.
    func startOperatorRefresh() {
        guard !config.operators.isEmpty, !tasks.has(Self.operatorRefreshSlot) else { return }
        let clock = clock
        tasks.start(Self.operatorRefreshSlot) { [weak self] in
            while !Task.isCancelled {
                await self?.refreshOperatorDoors()
                try? await clock.sleep(seconds: Self.operatorRefreshInterval)
            }
        }
    }

    /// A refresh now unless one ran within `operatorOnDemandInterval`; returns at once.
    func refreshOperatorDoorsSoon() {
        if let oldest = operatorDoors.oldestRefresh, clock.date.timeIntervalSince(oldest) < Self.operatorOnDemandInterval { return }
        tasks.start { await self.refreshOperatorDoors() }
    }

    static let operatorRefreshSlot = "operator refresh"

    /// Asks the operator to open a door. `ok` in `door_opened` means the operator accepted the
    /// request: it does not know whether the door opened (it answers the same when the panel is down).
    func openOperatorDoor(_ target: (op: OperatorConfig, domophoneId: String, doorId: Int, id: String),
                          by trigger: DoorTrigger, call: CallSession?) async throws -> JSONValue {
        let method = "operator"
        do {
            if trigger.isAutomatic { try admitAutomaticOperatorOpen(target.id) }
            let token = try operatorTokens.token(target.op.name)
            let client = try services.operatorClient(target.op, token, operatorTokens)
            try await client.openDoor(domophoneId: target.domophoneId, doorId: target.doorId)
        } catch {
            reportDoor(owner: target.op.name, call: call?.ref, door: target.id, method: method, by: trigger, error: error)
            if let error = error as? OperatorError { throw IntercomError.operatorRequest(error) }
            throw error
        }
        reportDoor(owner: target.op.name, call: call?.ref, door: target.id, method: method, by: trigger, error: nil)
        return .object([("operator", .string(target.op.name)), ("door", .string(target.id)),
                        ("attempts", .array([.object([("method", .string(method)), ("ok", .bool(true))])]))])
    }

    /// A hook may open an operator door at most once per `operatorAutomaticInterval` per door:
    /// the same guard the panels' `auto_open_interval` gives, at its default.
    private func admitAutomaticOperatorOpen(_ id: String) throws {
        let now = clock.date
        if let last = lastAutomaticOpen[id], now.timeIntervalSince(last) < Self.operatorAutomaticInterval {
            throw IntercomError.refused("automatic openings of \(id) are limited to one per \(Int(Self.operatorAutomaticInterval)) s")
        }
        lastAutomaticOpen[id] = now
    }

    static let operatorAutomaticInterval: TimeInterval = 5

    /// `o` in a call from an operator's panel, per `[operator NAME] open`: its door's DTMF digit,
    /// as SmartYard's apps do (the server passes it to the panel; a ringing call is answered muted
    /// first and hung up after), or the operator's API (`address/openDoor`; the call rings on).
    /// Doors other than the main one always go through the API.
    func openInOperatorCall(_ session: CallSession, door: Door, by trigger: DoorTrigger, phone: any PhoneService) async throws -> JSONValue {
        guard let listing = session.operatorDoor, let op = config.operator(named: listing.owner) else {
            throw IntercomError.unknownPanel("the call's operator is no longer in the config")
        }
        guard door == .main, op.open == .dtmf else {
            let doorId = door == .main ? listing.doorId ?? 0 : door.dsOutput
            let id = OperatorItemID.door(operator: op.name, domophoneId: listing.domophoneId ?? "", doorId: doorId)
            return try await openOperatorDoor((op, listing.domophoneId ?? "", doorId, id), by: trigger, call: session)
        }
        let id = session.info.id
        let ringing = session.stage == .ringing
        if trigger.isAutomatic {
            // As for a panel: only in a confirmed call (the caller's ACK and media came), and rate-limited.
            do {
                guard !ringing, calls[id]?.confirmed == true else {
                    throw IntercomError.refused("call \(id) is not confirmed (no ACK or no media from the caller): automatic openings wait for it")
                }
                try admitAutomaticOperatorOpen(listing.id)
            } catch {
                reportDoor(owner: op.name, call: session.ref, door: listing.id, method: "none", by: trigger, error: error)
                throw error
            }
        }
        if ringing {
            try await phone.setMicrophoneMuted(true, call: nil)
            try await answer(id, by: .user, phone: phone)
            guard try await wait(for: id, upTo: 5, until: { $0.stage == .active }) == .reached else {
                try? await phone.setMicrophoneMuted(muted, call: nil)
                throw IntercomError.noCall("answered")
            }
        }
        do {
            try await phone.sendDTMF(id, digits: Self.operatorDTMFDigit, timing: DTMFTiming())
            reportDoor(owner: op.name, call: session.ref, door: listing.id, method: "dtmf", by: trigger, error: nil)
        } catch {
            reportDoor(owner: op.name, call: session.ref, door: listing.id, method: "dtmf", by: trigger, error: error)
            if ringing { try? await phone.setMicrophoneMuted(muted, call: nil) }
            throw error
        }
        if ringing {
            // The digit takes its time on the wire before the hangup.
            try await clock.sleep(for: .seconds(1))
            try? await ending(id) { try await phone.hangup(id) }
            try? await phone.setMicrophoneMuted(muted, call: nil)
        }
        return .object([("operator", .string(op.name)), ("door", .string(listing.id)),
                        ("attempts", .array([.object([("method", .string("dtmf")), ("ok", .bool(true))])]))])
    }
}
