import Foundation
import IntercomBase
import IntercomCore
import IntercomOperator
import Synchronization

/// Every operator's mobile API in engine tests: the addresses (with their doors) and entrance
/// cameras each lists, the doors it was asked to open, and failures on demand.
package final class FakeOperator: Sendable {
    private struct State {
        var addresses: [String: [OperatorAddress]] = [:]
        var cameras: [String: [String: OperatorCamera]] = [:]
        var failure: [String: OperatorError.Kind] = [:]
        var failureText: [String: String] = [:]
        /// What each camera's recording keeps (`cctv/ranges`), by `operator\0camera`; none: nothing known.
        var ranges: [String: OperatorArchiveRanges] = [:]
        /// Each flat's guests, by `operator\0flat`.
        var guests: [String: Set<String>] = [:]
        /// Operators that answer a removal without removing (the server's 204 that did nothing).
        var ignoresRemovals: Set<String> = []
        /// Each operator's flats, and each flat's event log by day (`YYYY-MM-DD`), by `operator\0flat`.
        var flats: [String: [OperatorFlat]] = [:]
        var logs: [String: [String: [PlogEntry]]] = [:]
        var unread: [String: Int] = [:]
        /// Preview pictures by URL.
        var previews: [String: Data] = [:]
        /// Each flat's settings, by `operator\0flat`.
        var settings: [String: FlatSettings] = [:]
    }

    /// Each guest removal asked for, as `operator:flat:phone`.
    package let removals = Ledger<String>()

    /// Each door the engine asked an operator to open, as its door id (`home:1:0`).
    package let openings = Ledger<String>()
    /// Each address list asked for, by operator name.
    package let addressRequests = Ledger<String>()
    private let state = Mutex(State())

    package init() {}

    package func list(_ operatorName: String, addresses: [OperatorAddress], cameras: [String: OperatorCamera] = [:]) {
        state.withLock { s in
            s.addresses[operatorName] = addresses
            s.cameras[operatorName] = cameras
        }
    }

    /// What camera `cameraId`'s recording keeps, as the operator's `cctv/ranges` answers.
    package func ranges(_ operatorName: String, camera cameraId: String, _ ranges: OperatorArchiveRanges) {
        state.withLock { $0.ranges[operatorName + "\u{0}" + cameraId] = ranges }
    }

    /// The flat's guests as the operator lists them.
    package func guests(_ operatorName: String, flat: String, _ phones: Set<String>) {
        state.withLock { $0.guests[operatorName + "\u{0}" + flat] = phones }
    }

    package func guests(_ operatorName: String, flat: String) -> Set<String> {
        state.withLock { $0.guests[operatorName + "\u{0}" + flat] ?? [] }
    }

    /// The operator accepts removals and removes nothing (true), or removes again (false).
    package func ignoreRemovals(_ operatorName: String, _ ignore: Bool) {
        state.withLock { s in if ignore { s.ignoresRemovals.insert(operatorName) } else { s.ignoresRemovals.remove(operatorName) } }
    }

    fileprivate func remove(_ name: String, flat: String, phone: String) {
        state.withLock { s in
            guard !s.ignoresRemovals.contains(name) else { return }
            s.guests[name + "\u{0}" + flat]?.remove(phone)
        }
    }

    /// The operator's flats (`hasPlog` ones have an event log: `log(_:flat:day:_:)`).
    package func flats(_ operatorName: String, _ flats: [OperatorFlat]) {
        state.withLock { $0.flats[operatorName] = flats }
    }

    /// The entries of a flat's event log on `day` (`YYYY-MM-DD`, the operator's date), appended.
    package func log(_ operatorName: String, flat: String, day: String, _ entries: [PlogEntry]) {
        state.withLock { $0.logs[operatorName + "\u{0}" + flat, default: [:]][day, default: []] += entries }
    }

    /// The operator's unread messages (`inbox/unreaded`).
    package func unread(_ operatorName: String, _ count: Int) {
        state.withLock { $0.unread[operatorName] = count }
    }

    /// The picture at a log entry's preview URL (others answer 404).
    package func preview(_ url: String, _ jpeg: Data) {
        state.withLock { $0.previews[url] = jpeg }
    }

    /// The flat's settings as the operator keeps them (a change applies its wire values as the PHP reads them).
    package func settings(_ operatorName: String, flat: String) -> FlatSettings {
        state.withLock { $0.settings[operatorName + "\u{0}" + flat] ?? FlatSettings(cms: true, voip: true, whiteRabbit: 0) }
    }

    fileprivate func apply(_ name: String, flat: OperatorFlat, _ changes: [FlatSettingChange]) {
        var settings = settings(name, flat: flat.flatId)
        for change in changes {
            let on = change.wireValue == "t"
            switch change.wireKey {
            case "CMS": settings.cms = on
            case "VoIP": settings.voip = on
            case "whiteRabbit": settings.whiteRabbit = Int(change.wireValue)
            case "autoOpen": settings.autoOpen = change.until
            case "disablePlog" where flat.isOwner: settings.disablePlog = on
            case "hiddenPlog" where flat.isOwner: settings.hiddenPlog = on
            default: break
            }
        }
        state.withLock { $0.settings[name + "\u{0}" + flat.flatId] = settings }
    }

    fileprivate func preview(_ url: String) -> Data? { state.withLock { $0.previews[url] } }

    fileprivate func flats(_ name: String) -> [OperatorFlat] { state.withLock { $0.flats[name] ?? [] } }
    fileprivate func log(_ name: String, flat: String) -> [String: [PlogEntry]] {
        state.withLock { $0.logs[name + "\u{0}" + flat] ?? [:] }
    }
    fileprivate func unread(_ name: String) -> Int { state.withLock { $0.unread[name] ?? 0 } }

    /// The operator's every request fails with `kind` (nil: it works again).
    /// `serverText`: what the operator said with it (the "no right to delete" of a resident's removal).
    package func fail(_ operatorName: String, with kind: OperatorError.Kind?, serverText: String? = nil) {
        state.withLock {
            $0.failure[operatorName] = kind
            $0.failureText[operatorName] = serverText
        }
    }

    /// The client the engine makes for `config` (the token store already refused a missing login).
    package func client(_ config: OperatorConfig) -> any OperatorService {
        Client(name: config.name, fake: self)
    }

    fileprivate func check(_ name: String) throws(OperatorError) {
        let (kind, text) = state.withLock { ($0.failure[name], $0.failureText[name]) }
        if let kind { throw OperatorError(operatorName: name, kind: kind, serverText: text) }
    }

    fileprivate func addresses(_ name: String) -> [OperatorAddress] { state.withLock { $0.addresses[name] ?? [] } }
    fileprivate func cameras(_ name: String) -> [String: OperatorCamera] { state.withLock { $0.cameras[name] ?? [:] } }

    private struct Client: OperatorService {
        let name: String
        let fake: FakeOperator

        func addresses() async throws(OperatorError) -> [OperatorAddress] {
            fake.addressRequests.append(name)
            try fake.check(name)
            return fake.addresses(name)
        }

        func panelCameras() async throws(OperatorError) -> OperatorCameraMap {
            try fake.check(name)
            return OperatorCameraMap(byPanel: fake.cameras(name))
        }

        func camera(id: String) async throws(OperatorError) -> OperatorCamera? {
            try fake.check(name)
            return fake.cameras(name).values.first { $0.id == id }
        }

        func archiveRanges(cameraId: String) async throws(OperatorError) -> OperatorArchiveRanges {
            try fake.check(name)
            return fake.state.withLock { $0.ranges[name + "\u{0}" + cameraId] } ?? OperatorArchiveRanges([])
        }

        func openDoor(domophoneId: String, doorId: Int) async throws(OperatorError) {
            fake.openings.append(OperatorItemID.door(operator: name, domophoneId: domophoneId, doorId: doorId))
            try fake.check(name)
        }

        func removeGuest(flatId: String, phone: String) async throws(OperatorError) {
            fake.removals.append("\(name):\(flatId):\(phone)")
            try fake.check(name)
            fake.remove(name, flat: flatId, phone: phone)
        }

        func hasGuest(flatId: String, phone: String) async throws(OperatorError) -> Bool {
            try fake.check(name)
            return fake.guests(name, flat: flatId).contains(phone)
        }

        /// UTC: a test's log dates are the same on every machine.
        func timeZone() async -> TimeZone { TimeZone(identifier: "UTC") ?? .current }

        func flats() async throws(OperatorError) -> [OperatorFlat] {
            try fake.check(name)
            return fake.flats(name)
        }

        func settings(of flat: OperatorFlat, applying changes: [FlatSettingChange]) async throws(OperatorError) -> FlatSettings {
            try fake.check(name)
            fake.apply(name, flat: flat, changes)
            return fake.settings(name, flat: flat.flatId)
        }

        func plogDays(flatId: String) async throws(OperatorError) -> [PlogDay] {
            try fake.check(name)
            let days = fake.log(name, flat: flatId).map { JSONValue.object([("day", .string($0.key)), ("events", .integer($0.value.count))]) }
            return PlogDay.list(.array(days)) ?? []
        }

        func plog(flatId: String, day: String) async throws(OperatorError) -> [PlogEntry] {
            try fake.check(name)
            return fake.log(name, flat: flatId)[day] ?? []
        }

        func unreadMessages() async throws(OperatorError) -> Int {
            try fake.check(name)
            return fake.unread(name)
        }

        func preview(_ url: String, maxBytes: Int) async throws -> (status: Int, body: Data) {
            guard let jpeg = fake.preview(url) else { return (404, Data()) }
            return (200, jpeg.prefix(maxBytes))
        }
    }
}
