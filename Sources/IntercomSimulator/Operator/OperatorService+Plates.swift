import Foundation
import IntercomBase

/// The flat's licence plates as SmartYard-Server's `lprs/listNumbers`, `lprs/addNumber` and
/// `lprs/removeNumber` keep them: one list per flat (the flat's `cars`, one plate a line), which any
/// member of the flat may read and change; the plate recognition opens the gate for them.
extension OperatorService {
    /// 422 without `flatId`, 404 for a flat not the caller's, 204 for none, else the plates as strings.
    func listPlates(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        let flat: String
        switch plateFlat(body, caller) {
        case .failure(let refusal): return refusal.reply
        case .success(let found): flat = found
        }
        let plates = state.withLock { $0.plates[flat] ?? [] }
        guard !plates.isEmpty else { return OperatorEnvelope.noContent }
        return OperatorEnvelope.ok(.array(plates.map { .string($0) }))
    }

    /// Adds the plate unless it is listed already; 204 either way.
    func addPlate(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        changePlates(body, caller) { plates, number in
            if !plates.contains(number) { plates.append(number) }
        }
    }

    /// Takes the plate off; 204 also when it was not listed.
    func removePlate(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        changePlates(body, caller) { plates, number in plates.removeAll { $0 == number } }
    }

    /// What `addNumber.php` and `removeNumber.php` share: the flat check, `number` required
    /// (`(string)` of it: "" and "0" are falsy, 422), trimmed, its Cyrillic letters made Latin and
    /// upper case (`toLatin`), then checked as a Russian plate (422 `mobile.invalidPlateNumber`).
    private func changePlates(_ body: JSONValue, _ caller: Caller, _ change: (inout [String], String) -> Void) -> OperatorReply {
        let flat: String
        switch plateFlat(body, caller) {
        case .failure(let refusal): return refusal.reply
        case .success(let found): flat = found
        }
        let raw = body["number"]?.loose ?? ""
        guard !raw.isEmpty, raw != "0" else { return OperatorEnvelope.error(422) }
        let number = Self.latinPlate(raw.trimmingCharacters(in: .whitespacesAndNewlines))
        guard Self.isValidPlate(number) else { return OperatorEnvelope.error(422, OperatorText.invalidPlate(caller.language)) }
        state.withLock { s in change(&s.plates[flat, default: []], number) }
        return OperatorEnvelope.noContent
    }

    /// `(int)$postdata['flatId']`: 0 (absent, not a number) is 422; a flat not the caller's 404 `mobile.404`.
    private func plateFlat(_ body: JSONValue, _ caller: Caller) -> Result<String, Refusal> {
        guard let id = Int(body["flatId"]?.loose ?? ""), id != 0 else { return .failure(Refusal(reply: OperatorEnvelope.error(422))) }
        guard caller.hasFlat, houses.contains(where: { $0.flatId == String(id) }) else {
            return .failure(Refusal(reply: OperatorEnvelope.error(404, OperatorText.notFound(caller.language))))
        }
        return .success(String(id))
    }

    /// The server's `toLatin`: upper case, and the twelve Cyrillic letters a Russian plate uses
    /// become the Latin letters they look like.
    static func latinPlate(_ text: String) -> String {
        let map: [Character: Character] = ["А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O",
                                           "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X"]
        return String(text.uppercased().map { map[$0] ?? $0 })
    }

    /// The server's `isValidPlateNumber`: 8 or 9 bytes, a letter at 0, 4 and 5 (of ABCEHKMOPTXY),
    /// digits elsewhere (A123BC77, A123BC777).
    static func isValidPlate(_ number: String) -> Bool {
        let bytes = Array(number.utf8)
        guard bytes.count == 8 || bytes.count == 9 else { return false }
        let letters = Set("ABCEHKMOPTXY".utf8)
        return bytes.enumerated().allSatisfy { index, byte in
            [0, 4, 5].contains(index) ? letters.contains(byte) : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
