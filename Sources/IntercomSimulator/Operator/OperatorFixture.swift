import Foundation

/// The subscriber's world the simulator serves: by default one house, one flat, two doors on one
/// Beward panel, one camera; with `SimulatedOperatorOptions.addresses` N, N houses with a flat
/// each (as a subscriber with flats at several addresses sees it). Ids have the types a real
/// server gives them (house, domophone and flat ids are strings; door ids and camera ids numbers).
enum OperatorFixture {
    struct Door: Sendable {
        let houseId: String
        let domophoneId: String
        let doorId: Int
        let icon: String
        let name: String
    }

    /// One address with the subscriber's flat in it, its entrance panel and its camera.
    struct House: Sendable {
        let houseId: String
        let flatId: String
        let flatNumber: String
        let address: String
        let entranceId: Int
        /// Sorted as the server sorts them: entrance < wicket < gate < barrier.
        let doors: [Door]
        let cameraId: Int
        let cameraName: String
        /// More entrances the same panel serves (`SimulatedOperatorOptions.panelEntrances`), each with its
        /// own camera: `cctv/camMap` lists the panel once per entrance, as the server does.
        var moreEntrances: [Entrance] = []

        /// Every entrance of the house's panel, the first (`entranceId`, `cameraId`) first.
        var entrances: [Entrance] {
            [Entrance(entranceId: entranceId, cameraId: cameraId, cameraName: cameraName)] + moreEntrances
        }
    }

    /// An entrance and its camera.
    struct Entrance: Sendable {
        let entranceId: Int
        let cameraId: Int
        let cameraName: String
    }

    static let names = (name: "Иван", patronymic: "Иванович", last: "Тестов")
    /// An "owner" roommate and shared access without an end date expire at this far date.
    static let forever = "3001-01-01 00:00:00"
    static let blockedMessage = "The service is unavailable (the contract is blocked or not paid)"

    /// House `n` (from 1) has id, flat id, domophone id, entrance id and camera id `n`, so ids never
    /// collide across houses; house 1 is the one-address world the tests and the demo know.
    static func house(_ n: Int) -> House {
        let id = String(n)
        return House(
            houseId: id, flatId: id, flatNumber: String(n + 6), address: "г. Москва, ул. Тестовая, д. \(n)",
            entranceId: n,
            doors: [
                Door(houseId: id, domophoneId: id, doorId: 0, icon: "entrance", name: "Entrance 1"),
                Door(houseId: id, domophoneId: id, doorId: 1, icon: "gate", name: "Gate"),
            ],
            cameraId: n, cameraName: "Entrance 1")
    }

    /// Houses 1…count (at least one); house 1's panel serves `panelEntrances` entrances, the
    /// second and later with entrance and camera id 100 + k (no collision with a house's own).
    static func houses(_ count: Int, panelEntrances: Int = 1) -> [House] {
        var all = (1...max(1, count)).map(house)
        if panelEntrances > 1 {
            all[0].moreEntrances = (2...panelEntrances).map { k in
                Entrance(entranceId: 100 + k, cameraId: 100 + k, cameraName: "Entrance \(k)")
            }
        }
        return all
    }
}
