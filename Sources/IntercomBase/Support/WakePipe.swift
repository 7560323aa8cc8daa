import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A self-pipe: any thread `wake()`s, the owning thread polls `readFD` beside its other
/// descriptors and `drain()`s it. Both ends non-blocking: a full pipe already holds a wake-up.
package final class WakePipe: Sendable {
    package let readFD: Int32
    private let writeFD: Int32

    package init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for fd in ends {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        readFD = ends[0]
        writeFD = ends[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    package func wake() {
        var one: UInt8 = 1
        _ = write(writeFD, &one, 1)
    }

    package func drain() {
        var sink = [UInt8](repeating: 0, count: 256)
        while read(readFD, &sink, sink.count) > 0 {}
    }
}
