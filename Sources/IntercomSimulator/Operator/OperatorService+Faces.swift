import Foundation
import IntercomBase

/// The flat's faces as SmartYard-Server's `frs/listFaces`, `frs/like` and `frs/disLike` keep them
/// (`server/mobile/frs/*.php`). `like` refuses only what the PHP itself checks (no event, an unknown
/// one, an entry without a picture, another flat's entry) and hands the rest to the face server
/// (`registerFace` on the entrance's camera); the simulated face server finds a face only in an
/// entry that recorded one (a recognition, with its box) and answers the others as a face server
/// that found none: the PHP then sends 406 with the face server's message as `data`.
extension OperatorService {
    /// What the simulated face server says when it finds no face. The real one's wording is not in
    /// the PHP (it passes `P_MESSAGE` through); this one is ours.
    static let noFaceMessage = "No face found in the picture"

    /// 422 without `flatId`, 403 for a flat not the caller's, 204 for none.
    func listFaces(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        guard Int(body["flatId"]?.loose ?? "") ?? 0 != 0 else { return OperatorEnvelope.error(422) }
        guard ownFlat(body, caller) != nil else { return OperatorEnvelope.error(403, OperatorText.notFound(caller.language)) }
        let faces = state.withLock { $0.faces }
        guard !faces.isEmpty else { return OperatorEnvelope.noContent }
        return OperatorEnvelope.ok(.array(faces.map { face in
            .object([("faceId", .string(String(face.id))), ("image", .string(baseURL + "/address/plogCamshot/" + face.uuid))])
        }))
    }

    /// `like.php`: 405 without `event`, 404 for an unknown one, 403 for an entry without a picture
    /// (`PREVIEW_NONE`) or of a flat not the caller's, each with `mobile.404` in the requester's
    /// language (the current PHP; its older hard-coded Russian texts are gone); else the face
    /// server's answer: a face id → 200 (no data), none → 406 with its message as `data`.
    func likeFace(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        let notFound = OperatorText.notFound(caller.language)
        guard let uuid = body["event"]?.loose, !uuid.isEmpty else { return OperatorEnvelope.error(405, notFound) }
        guard let entry = state.withLock({ $0.log.first { $0.uuid == uuid } }) else { return OperatorEnvelope.error(404, notFound) }
        guard entry.hasPicture else { return OperatorEnvelope.error(403, notFound) }
        guard isCallers(entry, caller) else { return OperatorEnvelope.error(403, notFound) }
        // The face server: the entry's face box, or no face.
        guard entry.detail.contains(where: { $0.0 == "face" }) else {
            return OperatorEnvelope.error(406, OperatorText.response(406, caller.language), data: .string(Self.noFaceMessage))
        }
        state.withLock { s in
            let id = Self.faceId(entry) ?? 1000 + s.faces.count
            if !s.faces.contains(where: { $0.id == id }) { s.faces.append((id: id, uuid: uuid)) }
        }
        return OperatorEnvelope.ok(nil)
    }

    /// Whether the log entry is of a flat of the caller's.
    private func isCallers(_ entry: OperatorState.LogEntry, _ caller: Caller) -> Bool {
        caller.hasFlat && houses.contains { $0.houseId == entry.door.houseId }
    }

    /// `disLike.php`: by `event` (its face, and the face registered from it), else by `flatId` and
    /// `faceId`; 404 for an unknown event, 403 when no face is named, then 403 for a flat not the
    /// caller's, each with `mobile.404` as `like.php` (the current PHP; the hard-coded Russian texts
    /// were an older version's); 204 once taken off.
    func dislikeFace(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        let notFound = OperatorText.notFound(caller.language)
        var ids: [Int] = []
        let flatIsCallers: Bool
        if let uuid = body["event"]?.loose, !uuid.isEmpty {
            guard let entry = state.withLock({ $0.log.first { $0.uuid == uuid } }) else {
                return OperatorEnvelope.error(404, notFound)
            }
            ids = [Self.faceId(entry), state.withLock { $0.faces.first { $0.uuid == uuid }?.id }].compactMap { $0 }
            flatIsCallers = isCallers(entry, caller)
        } else {
            ids = [Int(body["faceId"]?.loose ?? "")].compactMap { $0 }
            flatIsCallers = ownFlat(body, caller) != nil
        }
        ids = ids.filter { $0 > 0 }
        guard !ids.isEmpty else { return OperatorEnvelope.error(403, notFound) }
        guard flatIsCallers else { return OperatorEnvelope.error(403, notFound) }
        state.withLock { s in s.faces.removeAll { ids.contains($0.id) } }
        return OperatorEnvelope.noContent
    }

    private static func faceId(_ entry: OperatorState.LogEntry) -> Int? {
        entry.detail.first { $0.0 == "faceId" }.flatMap { $0.1.loose.flatMap(Int.init) }
    }
}
