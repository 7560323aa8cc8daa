import Foundation

extension OperatorFlat {
    /// Why no flat could be picked: a line naming the flats, and whether the user asked wrongly
    /// (a flat not listed, several and no choice) or the login has none.
    public struct ChoiceError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        /// true: the login lists no flat at all (data), false: the choice is missing or wrong (usage).
        public var noFlats: Bool
    }

    /// The flat `choice` names (its id, or its number when one flat has it), or the login's only flat.
    public static func pick(_ flats: [OperatorFlat], choice: String?, operatorName: String) -> Result<OperatorFlat, ChoiceError> {
        func listing() -> String { flats.map { "\($0.flatId) (\($0.address))" }.joined(separator: ", ") }
        if let choice {
            if let byId = flats.first(where: { $0.flatId == choice }) { return .success(byId) }
            let byNumber = flats.filter { $0.flatNumber == choice }
            if byNumber.count == 1, let only = byNumber.first { return .success(only) }
            return .failure(ChoiceError(description: "\(operatorName) has no flat '\(choice)'; flats: \(listing())", noFlats: false))
        }
        guard let only = flats.first else {
            return .failure(ChoiceError(description: "\(operatorName) lists no flat for this login", noFlats: true))
        }
        guard flats.count == 1 else {
            return .failure(ChoiceError(description: "\(operatorName) has several flats; add --flat ID (one of \(listing()))", noFlats: false))
        }
        return .success(only)
    }
}
