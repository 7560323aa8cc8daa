/// mediastreamer keeps the static-picture camera's image process-wide: two phones in one test
/// process sending different pictures at once would swap them. Tests that start a
/// `.sendPicture` phone (or a `SimulatedPanel`) take turns through this lock.
package actor StaticPictureLock {
    package static let shared = StaticPictureLock()

    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package func acquire() async {
        if busy {
            await withCheckedContinuation { waiters.append($0) }
        } else {
            busy = true
        }
    }

    package func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// Runs `body` while no other test sends a static picture.
package func withStaticPicture(_ body: () async throws -> Void) async throws {
    await StaticPictureLock.shared.acquire()
    do {
        try await body()
    } catch {
        await StaticPictureLock.shared.release()
        throw error
    }
    await StaticPictureLock.shared.release()
}
