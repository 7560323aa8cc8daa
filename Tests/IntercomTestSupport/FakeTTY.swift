import Glibc

/// A pseudo-terminal pair; the test plays the terminal on `master`.
package final class FakeTTY: @unchecked Sendable {
    package let master: Int32
    package let slave: Int32

    package init() throws {
        // posix_openpt/ptsname are hidden from Swift's Glibc module (they need _XOPEN_SOURCE);
        // the Linux ioctls behind them are not. TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, uint).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw HarnessError("cannot open a pty")
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw HarnessError("cannot open the pty's slave") }
    }

    package func readAvailable() -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { return out }
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard n > 0 else { return out }
            out += buffer[0..<n]
        }
    }

    deinit {
        close(slave)
        close(master)
    }
}
