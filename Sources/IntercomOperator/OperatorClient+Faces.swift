import Foundation
import IntercomBase

/// A face the operator's recognition knows for the flat (`frs/listFaces`): its id and picture.
public struct OperatorFace: Sendable, Equatable {
    public var id: String
    /// The picture's URL (`address/plogCamshot/…`, no token needed: the URL is the secret).
    public var image: String?

    public init(id: String, image: String?) {
        self.id = id
        self.image = image
    }
}

/// The flat's faces as SmartYard-Server's `frs/*` has them: listed per flat, registered from a log
/// entry that has a picture of a face (`like`), taken off the flat (`disLike`: for the flat when the
/// caller owns it, else for the caller only, as the server decides).
extension OperatorClient {
    /// `frs/listFaces`; the server answers 204 for none, 422 without a recognition backend.
    public func faces(flatId: String) async throws(OperatorError) -> [OperatorFace] {
        guard let data = try await call("frs/listFaces", [("flatId", .id(flatId))]) else { return [] }
        guard let list = data.arrayValue else { throw shape("the faces list") }
        return list.compactMap { item in
            item["faceId"]?.looseString.map { OperatorFace(id: $0, image: item.text("image")) }
        }
    }

    /// `frs/like`: hands log entry `event` (its uuid) to the operator's face server, which registers
    /// the face it finds in the entry's picture for the caller. True when it did (200); false for the
    /// server's 204, which it sends when the entry's entrance has no camera to register with. The
    /// server itself refuses only an entry without a picture or of another flat (403); a picture
    /// with no face the face server finds is its 406, with the face server's message. `comment` is
    /// documented and sent empty as the apps send it; the server never reads it (server/mobile/frs/like.php),
    /// so `faces` offers no note.
    @discardableResult
    public func likeFace(event: String) async throws(OperatorError) -> Bool {
        try await answer("frs/like", [("event", .string(event)), ("comment", .string(""))]).status != 204
    }

    /// `frs/disLike` with the flat and the face (the faces list's form).
    public func dislikeFace(flatId: String, faceId: String) async throws(OperatorError) {
        _ = try await call("frs/disLike", [("flatId", .id(flatId)), ("faceId", .id(faceId))])
    }
}
