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

    func settingsList(_ caller: Caller) -> OperatorReply {
        guard caller.hasFlat else { return OperatorEnvelope.ok(nil) }
        let now = Date()
        let (code, shared) = state.withLock { s in
            s.roommates.removeAll { clock.parse($0.expire).map { $0 <= now } ?? false }
            return (s.settings.doorCode, s.roommates)
        }
        let owner = OperatorState.Roommate(phone: options.testPhone, expire: OperatorFixture.forever, type: "owner")
        let roommates: [JSONValue] = ([owner] + shared).map {
            .object([("phone", .string($0.phone)), ("expire", .string($0.expire)), ("type", .string($0.type))])
        }
        return OperatorEnvelope.ok(.array(houses.map { house in
            .object([
                ("flatId", .string(house.flatId)),
                ("flatNumber", .string(house.flatNumber)),
                ("houseId", .string(house.houseId)),
                ("address", .string("\(house.address), кв. \(house.flatNumber)")),
                ("doorCode", .string(code)),
                ("flatOwner", .flag(true)),
                ("hasGates", .flag(false)),
                ("hasPlog", .flag(true)),
                ("services", .array([.string("domophone")])),
                ("contractOwner", .flag(true)),
                ("roommates", .array(roommates)),
            ])
        }))
    }

    /// 204 once the panel was asked (or could not be: the real driver ignores every panel failure);
    /// 404 for a door that is not the flat's or a blocked flat. The log says "opened by app" either way.
    func openDoor(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        let doorId = body["doorId"]?.loose.flatMap { Int($0) } ?? 0
        guard caller.hasFlat, !options.blocked, let domophoneId = body["domophoneId"]?.loose,
              let door = findDoor(domophoneId: domophoneId, doorId: doorId) else {
            return OperatorEnvelope.error(404, OperatorFixture.blockedMessage)
        }
        if let panel = options.panel {
            OperatorPanelDoor(target: panel).open(doorId: door.doorId)
        }
        record(event: "4", door: door, detail: [("phone", .string(caller.phone))])
        return OperatorEnvelope.noContent
    }

    /// Shares the flat with `guestPhone` until `expire` (or for good); a past `expire` removes the share.
    func access(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        guard ownFlat(body, caller) != nil else { return OperatorEnvelope.error(404) }
        guard let guest = Self.normalizedPhone(body["guestPhone"]) else { return OperatorEnvelope.error(422) }
        let now = Date()
        var until: Date?
        if let text = body["expire"]?.loose, !text.isEmpty {
            guard let date = clock.parse(text) else { return OperatorEnvelope.error(422) }
            until = date
        }
        let owner = options.testPhone
        let clock = self.clock
        let added: Bool = state.withLock { s in
            if let until, until <= now {
                s.roommates.removeAll { $0.phone == guest }
                return true
            }
            guard guest != owner, !s.roommates.contains(where: { $0.phone == guest }) else { return false }
            s.roommates.append(OperatorState.Roommate(
                phone: guest, expire: until.map(clock.dateTime) ?? OperatorFixture.forever, type: "inner"))
            return true
        }
        return added ? OperatorEnvelope.noContent : OperatorEnvelope.error(422, OperatorText.alreadyShared)
    }

    func resetCode(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        guard ownFlat(body, caller) != nil else { return OperatorEnvelope.error(404) }
        let code = String(Int.random(in: 10_000...99_999))
        state.withLock { $0.settings.doorCode = code }
        return OperatorEnvelope.ok(.object([("code", .string(code))]))
    }
}
