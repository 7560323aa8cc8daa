import Foundation
import IntercomOperator
import Synchronization
import IntercomBase

/// The doors of the logged-in operators as their address lists last gave them. The engine fills
/// it in the background (at start, on SIGHUP, every few minutes) and reads it without waiting, so
/// a ringing call never waits on an operator's API; front ends read it to list doors. Beside the
/// doors, each operator's entrance cameras (`cctv/camMap`): what its ringing calls show.
public final class OperatorDoorDirectory: Sendable {
    private struct State {
        var order: [String] = []
        var doors: [String: [DoorListing]] = [:]
        var refreshed: [String: Date] = [:]
        /// Per operator: its camera map (every entrance's camera, by panel).
        var cameras: [String: OperatorCameraMap] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Every known operator door, operators in config order.
    public var doors: [DoorListing] {
        state.withLock { s in s.order.flatMap { s.doors[$0] ?? [] } }
    }

    /// The operators configured now, in order; the doors of others are dropped.
    func keep(only names: [String]) {
        state.withLock { s in
            s.order = names
            s.doors = s.doors.filter { names.contains($0.key) }
            s.refreshed = s.refreshed.filter { names.contains($0.key) }
            s.cameras = s.cameras.filter { names.contains($0.key) }
        }
    }

    func replace(_ name: String, with doors: [DoorListing], at time: Date = Date()) {
        state.withLock { s in
            s.doors[name] = doors
            s.refreshed[name] = time
            if !s.order.contains(name) { s.order.append(name) }
        }
    }

    /// The operator's entrance cameras as it last listed them (its camera tokens with them).
    func replaceCameras(_ name: String, with cameras: OperatorCameraMap) {
        state.withLock { $0.cameras[name] = cameras }
    }

    /// The camera of the operator's panel `domophoneId` (its first entrance's: a call does not say
    /// which entrance it came from), if its camera map names one.
    func camera(owner: String, domophoneId: String) -> OperatorCamera? {
        state.withLock { $0.cameras[owner]?[domophoneId] }
    }

    /// The door a call from this domophone stands for: its lowest door (the one its relay
    /// opens), from the first operator that lists it.
    public func door(domophoneId: String) -> DoorListing? {
        doors.filter { $0.domophoneId == domophoneId }.min { ($0.doorId ?? 0) < ($1.doorId ?? 0) }
    }

    public func door(id: String) -> DoorListing? {
        doors.first { $0.id.lowercased() == id.lowercased() }
    }

    /// When the oldest operator list was fetched (nil: some never was).
    var oldestRefresh: Date? {
        state.withLock { s in
            s.order.reduce(Date?.some(.distantFuture)) { oldest, name in
                guard let oldest, let time = s.refreshed[name] else { return nil }
                return min(oldest, time)
            }
        }
    }
}
