/// A lock tests in one process take turns through, across test targets, for a resource that
/// cannot be shared: `staticPicture` (mediastreamer keeps the static-picture camera's image
/// process-wide: two phones sending different pictures at once would swap them) and `liveStreams`
/// (a test RTSP server, a decoder and often a terminal drawing each cost a good part of a core:
/// side by side on a small machine a test measuring a frame rate fails for want of CPU, not for a bug).
package actor TestTurnLock {
    package static let staticPicture = TestTurnLock()
    package static let liveStreams = TestTurnLock()

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

/// Runs `body` holding `lock`; released however `body` ends.
package func withTurn(of lock: TestTurnLock, _ body: () async throws -> Void) async throws {
    await lock.acquire()
    do {
        try await body()
    } catch {
        await lock.release()
        throw error
    }
    await lock.release()
}

/// Runs `body` while no other test sends a static picture.
package func withStaticPicture(_ body: () async throws -> Void) async throws {
    try await withTurn(of: .staticPicture, body)
}

/// Runs `body` while no other test plays live streams.
package func withLiveStreams(_ body: () async throws -> Void) async throws {
    try await withTurn(of: .liveStreams, body)
}
