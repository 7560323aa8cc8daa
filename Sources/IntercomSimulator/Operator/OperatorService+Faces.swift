import Foundation
import IntercomBase

/// The flat's faces as SmartYard-Server's `frs/listFaces`, `frs/like` and `frs/disLike` keep them:
/// registered from a log entry with a face (its `faceId`, or a new one), listed with the entry's
/// picture, taken off by flat and face id or by the entry. Refusals carry `mobile.404` ("Not found") as
/// the PHP's do, whatever their status.
extension OperatorService {
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

    /// 405 without `event`, 404 for an unknown one, 403 for an entry without a picture of a face.
    func likeFace(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        guard let uuid = body["event"]?.loose, !uuid.isEmpty else { return OperatorEnvelope.error(405, OperatorText.notFound(caller.language)) }
        guard let entry = state.withLock({ $0.log.first { $0.uuid == uuid } }) else { return OperatorEnvelope.error(404, OperatorText.notFound(caller.language)) }
        guard entry.detail.contains(where: { $0.0 == "face" }) else { return OperatorEnvelope.error(403, OperatorText.notFound(caller.language)) }
        state.withLock { s in
            let id = Self.faceId(entry) ?? 1000 + s.faces.count
            if !s.faces.contains(where: { $0.id == id }) { s.faces.append((id: id, uuid: uuid)) }
        }
        return OperatorEnvelope.ok(nil)
    }

    /// By `event` (its face), else by `flatId` and `faceId`; 403 when no face is named.
    func dislikeFace(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        var id: Int?
        if let uuid = body["event"]?.loose, !uuid.isEmpty {
            guard let entry = state.withLock({ $0.log.first { $0.uuid == uuid } }) else { return OperatorEnvelope.error(404, OperatorText.notFound(caller.language)) }
            id = Self.faceId(entry) ?? state.withLock { $0.faces.first { $0.uuid == uuid }?.id }
        } else {
            guard ownFlat(body, caller) != nil else { return OperatorEnvelope.error(403, OperatorText.notFound(caller.language)) }
            id = Int(body["faceId"]?.loose ?? "")
        }
        guard let id, id > 0 else { return OperatorEnvelope.error(403, OperatorText.notFound(caller.language)) }
        state.withLock { $0.faces.removeAll { $0.id == id } }
        return OperatorEnvelope.noContent
    }

    private static func faceId(_ entry: OperatorState.LogEntry) -> Int? {
        entry.detail.first { $0.0 == "faceId" }.flatMap { $0.1.loose.flatMap(Int.init) }
    }
}
