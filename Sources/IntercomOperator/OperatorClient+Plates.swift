import Foundation
import IntercomBase

/// The flat's licence plates as SmartYard-Server's `lprs/*` keeps them: one list per flat that any
/// member may read and change; the operator's plate recognition opens the gate or barrier for them
/// (log entries "opened by plate", who `plate A123BC77`).
extension OperatorClient {
    /// `lprs/listNumbers`; the server answers 204 for none.
    public func plates(flatId: String) async throws(OperatorError) -> [String] {
        guard let data = try await call("lprs/listNumbers", [("flatId", .id(flatId))]) else { return [] }
        // An older server filters the flat's lines without renumbering them, so its list can come
        // as an object keyed "1", "2"…: its values are the plates all the same.
        let items: [JSONValue]
        switch data {
        case .array(let list): items = list
        case .object(let fields): items = fields.map(\.1)
        default: throw shape("the plates list")
        }
        return items.compactMap { $0.looseString.flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// `lprs/addNumber`: 204, or 422 with the server's "Invalid license plate number".
    public func addPlate(flatId: String, number: String) async throws(OperatorError) {
        _ = try await call("lprs/addNumber", [("flatId", .id(flatId)), ("number", .string(number))])
    }

    /// `lprs/removeNumber`: 204 also for a plate the flat does not have.
    public func removePlate(flatId: String, number: String) async throws(OperatorError) {
        _ = try await call("lprs/removeNumber", [("flatId", .id(flatId)), ("number", .string(number))])
    }

    /// A plate as the server stores it: no spaces, upper case, the Cyrillic letters of a Russian
    /// plate as the Latin ones they look like (the server's `toLatin`), so "а 123 вс 77" and
    /// "A123BC77" are one plate; nil for text that is no plate at all (empty, or other than letters
    /// and digits). Whether it is a valid plate the server decides.
    public static func normalizedPlate(_ text: String) -> String? {
        let map: [Character: Character] = ["А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O",
                                           "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X"]
        let plate = String(text.filter { !$0.isWhitespace && $0 != "-" }.uppercased().map { map[$0] ?? $0 })
        guard !plate.isEmpty, plate.count <= 16, plate.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        return plate
    }
}
