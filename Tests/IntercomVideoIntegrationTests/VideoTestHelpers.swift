import Foundation
import IntercomImaging
import IntercomTestSupport
import IntercomVideo

/// Waiting on a stream with a deadline, and counting decode threads.
enum VideoTestHelpers {
    /// The first `count` pictures, or a timeout failure (the stream is stopped either way by the caller).
    static func frames(of stream: VideoStream, count: Int, within limit: Duration) async throws -> [RGBImage] {
        try await TestPatience.within(limit, "\(count) frames from \(stream.source.displayName)") {
            var pictures: [RGBImage] = []
            for try await picture in stream.frames {
                pictures.append(picture)
                if pictures.count == count { break }
            }
            return pictures
        }
    }

    /// How the stream ended: the thrown error (nil when it finished cleanly), and after how long.
    static func outcome(of stream: VideoStream, within limit: Duration) async throws -> (error: (any Error)?, after: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let error = try await TestPatience.within(limit, "the end of \(stream.source.displayName)") { () -> (any Error)? in
            do {
                for try await _ in stream.frames {}
                return nil
            } catch {
                return error
            }
        }
        return (error, clock.now - start)
    }

    /// Decode threads alive in this process, by name.
    static func decodeThreads() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .whitespacesAndNewlines) == VideoStream.threadName
        }.count
    }

    /// Polls until no decode thread is left; returns how many remain at the deadline.
    static func decodeThreadsGone(within limit: Duration) async throws -> Int {
        await TestPatience.eventually(within: limit) { decodeThreads() == 0 }
        return decodeThreads()
    }

    /// True when the picture is not one flat colour (a test pattern was decoded, not a blank buffer).
    static func hasDetail(_ image: RGBImage) -> Bool {
        guard let first = image.pixels.first else { return false }
        return image.pixels.contains { $0 != first }
    }
}
