import Foundation
import IntercomEngine

/// The operator cameras attached `watch` screens show, per connection: one player per camera (its
/// pictures go into the hub under the camera's id, for every screen's picture subscription), started
/// by the first screen and stopped when the last one leaves. A screen asking another view of a
/// camera that plays (its recording from another moment) restarts it: the hub has one picture per id.
actor WatchedCameras {
    private let intercom: Intercom
    private var byConnection: [Int: String] = [:]
    private var players: [String: (view: OperatorCameraView, task: Task<Void, Never>)] = [:]

    init(intercom: Intercom) { self.intercom = intercom }

    /// Whether connection `number` shows camera `id` (its picture subscription may then name it).
    func shows(_ number: Int, _ id: String) -> Bool { byConnection[number] == id }

    /// Connection `number` shows camera `id` (nil: none any more); throws the operator's one line.
    func set(_ number: Int, camera id: String?, view: OperatorCameraView) async throws(IntercomError) {
        if let id {
            if players[id]?.view != view {
                let camera = try await intercom.operatorCamera(id, view)
                let old = players[id]?.task
                let player = await intercom.cameraPlayer(camera)
                players[id] = (view, Task { await player.run() })
                old?.cancel()
                await old?.value
            }
        }
        let previous = byConnection[number]
        byConnection[number] = id
        if let previous, previous != id { await stopUnwatched(previous) }
    }

    func remove(_ number: Int) async {
        guard let id = byConnection.removeValue(forKey: number) else { return }
        await stopUnwatched(id)
    }

    /// Cameras playing now (tests).
    var playing: [String] { players.keys.sorted() }

    private func stopUnwatched(_ id: String) async {
        guard !byConnection.values.contains(id), let player = players.removeValue(forKey: id) else { return }
        player.task.cancel()
        await player.task.value
    }
}
