import Foundation
import IntercomBase
import IntercomImaging

/// The event log: `address/plogDays`, `address/plog` and the entries' pictures (`plogCamshot`).
extension OperatorService {
    /// Adds an entry now. The real server fills its log from a job that runs every minute; the
    /// simulator writes at once, so a test need not wait.
    @discardableResult
    func record(event: String, door: OperatorFixture.Door, detail: [(String, JSONValue)], picture: Bool = true,
                entrance: OperatorFixture.Entrance? = nil) -> String {
        let entry = OperatorState.LogEntry(date: Date(), uuid: UUID().uuidString.lowercased(), event: event,
                                           door: door, detail: detail, hasPicture: picture, entrance: entrance)
        state.withLock { $0.log.append(entry) }
        return entry.uuid
    }

    /// The flat's house, or the refusal (plogDays.php, plog.php): 404 for a flat not the caller's, 402
    /// for a flat blocked automatically (not paid), 403 for one an admin blocked, for a log the owner
    /// disabled, or for one kept to the owner and asked by another.
    private func logGate(_ body: JSONValue, _ caller: Caller) -> Result<OperatorFixture.House, Refusal> {
        guard let house = ownFlat(body, caller) else { return .failure(Refusal(reply: OperatorEnvelope.error(404))) }
        if options.blocked { return .failure(Refusal(reply: OperatorEnvelope.error(402))) }
        if options.adminBlocked { return .failure(Refusal(reply: OperatorEnvelope.error(403))) }
        let access = state.withLock { $0.settings.plog }
        if access == .denied || access == .ownerOnly && !isOwner(caller) {
            return .failure(Refusal(reply: OperatorEnvelope.error(403)))
        }
        return .success(house)
    }

    func plogDays(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        let house: OperatorFixture.House
        switch logGate(body, caller) {
        case .failure(let refusal): return refusal.reply
        case .success(let found): house = found
        }
        let kinds = Set((body["events"]?.loose ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty })
        let entries = state.withLock { $0.log }.filter {
            $0.door.houseId == house.houseId && (kinds.isEmpty || kinds.contains($0.event))
        }
        var perDay: [String: Int] = [:]
        for entry in entries { perDay[clock.day(entry.date), default: 0] += 1 }
        let days: [JSONValue] = perDay.keys.sorted(by: >).map {
            .object([("day", .string($0)), ("events", .integer(perDay[$0] ?? 0))])
        }
        return OperatorEnvelope.ok(.array(days))
    }

    func plog(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        let house: OperatorFixture.House
        switch logGate(body, caller) {
        case .failure(let refusal): return refusal.reply
        case .success(let found): house = found
        }
        guard let day = body["day"]?.loose, clock.parse(day) != nil else { return OperatorEnvelope.error(422) }
        let entries = state.withLock { $0.log }.filter { $0.door.houseId == house.houseId && clock.day($0.date) == day }
            .sorted { $0.date > $1.date }
        // When each entry was first handed out: a client's sync saw it then (the bench times from it).
        let now = Date()
        state.withLock { s in for entry in entries where s.firstServed[entry.uuid] == nil { s.firstServed[entry.uuid] = now } }
        return OperatorEnvelope.ok(.array(entries.map(encode)))
    }

    private func encode(_ entry: OperatorState.LogEntry) -> JSONValue {
        // previewType 0 = no picture (then no preview URL), 1 = a frame of the DVR.
        let picture: [(String, JSONValue)] = entry.hasPicture
            ? [("previewType", .integer(1)), ("preview", .string("\(baseURL)/address/plogCamshot/\(entry.uuid)"))]
            : [("previewType", .integer(0))]
        return .object([
            ("date", .string(clock.dateTime(entry.date))),
            ("uuid", .string(entry.uuid)),
        ] + picture + [
            ("objectId", .string(entry.door.domophoneId)),
            ("objectType", .string("0")),
            ("objectMechanizma", .string(String(entry.door.doorId))),
            ("mechanizmaDescription", .string(entry.door.name)),
            ("houseId", .integer(Int(entry.door.houseId) ?? 1)),
        ] + entrance(of: entry) + [
            ("event", .string(entry.event)),
            ("detailX", .object(entry.detail)),
        ])
    }

    /// `entranceId` and `cameraId` as plog.php writes them from the event's domophone record (integers,
    /// each only when set): the entrance the panel reported, and that entrance's camera.
    private func entrance(of entry: OperatorState.LogEntry) -> [(String, JSONValue)] {
        guard let entrance = entry.entrance ?? houses.first(where: { $0.houseId == entry.door.houseId })?.entrances.first else { return [] }
        return [("entranceId", .integer(entrance.entranceId)), ("cameraId", .integer(entrance.cameraId))]
    }

    /// The porch scene at the entry's time, as the camera would have seen it.
    func camshot(uuid: String) -> OperatorReply {
        let found: (Int, OperatorState.LogEntry)? = state.withLock { s in
            s.log.firstIndex { $0.uuid == uuid }.map { ($0, s.log[$0]) }
        }
        guard let (index, entry) = found, entry.hasPicture else { return OperatorEnvelope.error(404) }
        let image = SyntheticFrame.render(frame: index + 1, label: "PLOG", time: clock.time(entry.date))
        guard let jpeg = try? JPEG.encode(image, quality: 75) else { return OperatorEnvelope.error(500) }
        return .bytes(status: 200, type: "image/jpeg", jpeg)
    }
}
