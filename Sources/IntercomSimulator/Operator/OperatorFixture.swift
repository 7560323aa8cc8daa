import Foundation

/// The subscriber's world the simulator serves: one house, one flat, two doors on one Beward panel,
/// one camera. Ids have the types a real server gives them (house, domophone and flat ids are
/// strings; door ids and camera ids numbers).
enum OperatorFixture {
    struct Door: Sendable {
        let domophoneId: String
        let doorId: Int
        let icon: String
        let name: String
    }

    static let houseId = "1"
    static let flatId = "1"
    static let flatNumber = "7"
    static let address = "г. Москва, ул. Тестовая, д. 1"
    static let entranceId = 1
    static let names = (name: "Иван", patronymic: "Иванович", last: "Тестов")
    /// Sorted as the server sorts them: entrance < wicket < gate < barrier.
    static let doors = [
        Door(domophoneId: "1", doorId: 0, icon: "entrance", name: "Entrance 1"),
        Door(domophoneId: "1", doorId: 1, icon: "gate", name: "Gate"),
    ]
    static let cameraId = 1
    static let cameraName = "Entrance 1"
    /// An "owner" roommate and shared access without an end date expire at this far date.
    static let forever = "3001-01-01 00:00:00"
    static let blockedMessage = "The service is unavailable (the contract is blocked or not paid)"

    static func door(domophoneId: String, doorId: Int) -> Door? {
        doors.first { $0.domophoneId == domophoneId && $0.doorId == doorId }
    }
}
