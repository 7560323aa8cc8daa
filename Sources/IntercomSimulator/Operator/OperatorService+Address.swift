import Foundation
import IntercomBase

/// `address/getAddressList`, `getSettingsList`, `openDoor`, `access` and `resetCode`.
extension OperatorService {
    /// The house whose flat `flatId` names, when it is the caller's; nil answers 404.
    func ownFlat(_ body: JSONValue, _ caller: Caller) -> OperatorFixture.House? {
        guard caller.hasFlat, let flatId = body["flatId"]?.loose else { return nil }
        return houses.first { $0.flatId == flatId }
    }

    /// One of the subscriber's doors, in any of the houses.
    func findDoor(domophoneId: String, doorId: Int) -> OperatorFixture.Door? {
        houses.lazy.flatMap(\.doors).first { $0.domophoneId == domophoneId && $0.doorId == doorId }
    }

    func addressList(_ caller: Caller) -> OperatorReply {
        guard caller.hasFlat else { return OperatorEnvelope.noContent }
        let code = state.withLock { $0.settings.doorCode }
        return OperatorEnvelope.ok(.array(houses.map { house in
            .object([
                ("houseId", .string(house.houseId)),
                ("address", .string(house.address)),
                ("hasPlog", .flag(true)),
                ("doors", .array(addressDoors(house, code: code))),
                ("cctv", .integer(1)),
            ])
        }))
    }

    private func addressDoors(_ house: OperatorFixture.House, code: String) -> [JSONValue] {
        house.doors.map { door in
            var fields: [(String, JSONValue)] = [
                ("domophoneId", .string(door.domophoneId)), ("doorId", .integer(door.doorId)),
                ("icon", .string(door.icon)), ("name", .string(door.name)),
            ]
            if door.icon == "entrance" { fields.append(("doorCode", .string(code))) }
            // `blocked` is a message to show, not a flag.
            if options.blocked { fields.append(("blocked", .string(OperatorFixture.blockedMessage))) }
            return .object(fields)
        }
    }

    /// The caller's flats; `roommates` are the flat's other subscribers (the caller left out),
    /// each listed until 3001 whatever they were given (the server keeps no expiry). As
    /// `getSettingsList.php`: `doorCode` only when the flat's `openCode` is set and not "00000"
    /// (the server's "no code"), `contractOwner` = `flatOwner`, and `keys` (the flat's RFID keys,
    /// `getKeys("flatId")`) for the owner only.
    func settingsList(_ caller: Caller) -> OperatorReply {
        // No flat: `response()` without data, a 204 (getSettingsList.php).
        guard caller.hasFlat else { return OperatorEnvelope.noContent }
        let (code, shared) = state.withLock { s in (s.settings.doorCode, s.roommates) }
        let isOwner = caller.isOwner
        // A resident sees the owner among the flat's other subscribers.
        let owner = isOwner ? [] : [OperatorState.Roommate(phone: options.testPhone, type: "owner")]
        let roommates: [JSONValue] = (owner + shared).filter { $0.phone != caller.phone }.map {
            .object([("phone", .string($0.phone)), ("expire", .string(OperatorFixture.forever)), ("type", .string($0.type))])
        }
        return OperatorEnvelope.ok(.array(houses.map { house in
            var fields: [(String, JSONValue)] = [
                ("address", .string("\(house.address), кв. \(house.flatNumber)")),
                ("houseId", .string(house.houseId)),
                ("flatId", .string(house.flatId)),
                ("flatNumber", .string(house.flatNumber)),
            ]
            if code != "00000" { fields.append(("doorCode", .string(code))) }
            fields += [
                ("flatOwner", .flag(isOwner)),
                ("hasGates", .flag(false)),
                ("hasPlog", .flag(true)),
                ("services", .array([.string("domophone")])),
                ("contractOwner", .flag(isOwner)),
                ("roommates", .array(roommates)),
            ]
            if isOwner { fields.append(("keys", .array(flatKeys(house)))) }
            return .object(fields)
        }))
    }

    /// `households->getKeys("flatId", …)`: the rows of `houses_rfids` renamed by the backend's map.
    /// Numbers as numbers (what PDO's pgsql driver gives for integer columns); `lastSeen` null for
    /// a key never shown to a panel here.
    private func flatKeys(_ house: OperatorFixture.House) -> [JSONValue] {
        options.keys.enumerated().map { index, rfId in
            .object([
                ("keyId", .integer(index + 1)),
                ("rfId", .string(rfId)),
                ("accessType", .integer(2)),
                ("accessTo", .integer(Int(house.flatId) ?? 0)),
                ("lastSeen", .null),
                ("comments", .string(index == 0 ? "Ключ 1" : "")),
            ])
        }
    }

    /// 204 once the panel was asked (or could not be: the real driver ignores every panel failure);
    /// 404 for a door that is not the flat's or a blocked flat (either block, openDoor.php). The log says
    /// "opened by app" either way.
    func openDoor(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        let doorId = body["doorId"]?.loose.flatMap { Int($0) } ?? 0
        guard caller.hasFlat, !options.blocked, !options.adminBlocked, let domophoneId = body["domophoneId"]?.loose,
              let door = findDoor(domophoneId: domophoneId, doorId: doorId) else {
            return OperatorEnvelope.error(404, OperatorFixture.blockedMessage)
        }
        if let panel = options.panel {
            OperatorPanelDoor(target: panel).open(doorId: door.doorId)
        }
        record(event: "4", door: door, detail: [("phone", .string(caller.phone))])
        return OperatorEnvelope.noContent
    }

    /// `address/access` as the PHP does it: `expire` given is `strtotime`d in PHP's zone (text it
    /// cannot read, or 1970-01-01 00:00:00 on UTC, is falsy and becomes now); absent, it is 3001.
    /// Only `expire < now` removes; anything else adds the phone to the flat, without an expiry
    /// (`expire` and `type` are not kept), and the guest gets a "new address" message in the
    /// requester's language. Adding a phone already linked fails (422).
    func access(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        guard Int(body["flatId"]?.loose ?? "") ?? 0 != 0 else { return OperatorEnvelope.error(422) }
        guard ownFlat(body, caller) != nil else { return OperatorEnvelope.error(404) }
        let isOwner = caller.isOwner
        let guest = body["guestPhone"]?.loose ?? ""
        let now = Date()
        var expire = OperatorClock.forever
        if let field = body["expire"] {
            let parsed = field.loose.flatMap(clock.parse).map(\.timeIntervalSince1970) ?? 0
            expire = parsed == 0 ? now.timeIntervalSince1970 : parsed
        }
        if expire < now.timeIntervalSince1970 {
            if guest != caller.phone && !isOwner { return OperatorEnvelope.ok(.string(OperatorText.noRightToDelete)) }
            // A phone the server does not know, or not linked to the flat: nothing to do, 204 all the same.
            state.withLock { $0.roommates.removeAll { $0.phone == guest } }
            return OperatorEnvelope.noContent
        }
        guard Self.normalizedPhone(.string(guest)) == guest else { return OperatorEnvelope.error(422, OperatorText.alreadyShared(caller.language)) }
        let owner = options.testPhone
        let language = caller.language
        let added: Bool = state.withLock { s in
            guard guest != owner, !s.roommates.contains(where: { $0.phone == guest }) else { return false }
            s.roommates.append(OperatorState.Roommate(phone: guest, type: "inner"))
            s.send(OperatorText.newAddress(language: language), to: guest)
            return true
        }
        return added ? OperatorEnvelope.noContent : OperatorEnvelope.error(422, OperatorText.alreadyShared(caller.language))
    }

    /// Any member of the flat may; the code comes back as a number, as the server's does.
    func resetCode(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        guard Int(body["flatId"]?.loose ?? "") ?? 0 != 0 else { return OperatorEnvelope.error(422) }
        guard ownFlat(body, caller) != nil else { return OperatorEnvelope.error(404) }
        let code = Int.random(in: 10_000...99_999)
        state.withLock { $0.settings.doorCode = String(code) }
        return OperatorEnvelope.ok(.object([("code", .integer(code))]))
    }
}
