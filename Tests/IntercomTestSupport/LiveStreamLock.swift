/// Tests that play live streams (a test RTSP server encoding, a decoder, often a terminal drawing)
/// each cost a good part of a core: run side by side on a small machine they starve one another,
/// and a test that measures a frame rate fails for want of CPU, not for a bug. Such tests, in any
/// test target, take turns through this lock.
package actor LiveStreamLock {
    package static let shared = LiveStreamLock()

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

/// Runs `body` while no other test plays live streams.
package func withLiveStreams(_ body: () async throws -> Void) async throws {
    await LiveStreamLock.shared.acquire()
    do {
        try await body()
    } catch {
        await LiveStreamLock.shared.release()
        throw error
    }
    await LiveStreamLock.shared.release()
}
