import CMicroHTTPD
import Foundation

/// The panel's alarm stream (`alarmchangestate_cgi`): lines as alarms happen, silence between
/// (CRLF keep-alives only when `keepAliveMs` asks for them).
final class AlarmStreamBody: StreamedBody {
    let core: SimulatorCore
    let subscriber = AlarmSubscriber()
    /// The client's socket (-1 unknown): with nothing to write, peeking is how a client that went
    /// away is noticed.
    private let socket: Int32
    /// Only the connection's own thread calls `read`, so this needs no lock.
    private var lastWrite = ContinuousClock.now

    init(core: SimulatorCore, socket: Int32) {
        self.core = core
        self.socket = socket
        core.addSubscriber(subscriber)
    }

    /// The client closed its end (a request has no body, so any readable EOF means it left).
    private var clientLeft: Bool {
        guard socket >= 0 else { return false }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    deinit { core.removeSubscriber(subscriber) }

    /// Waits briefly for a line; returning 0 makes MHD call again, so the short
    /// wait is what keeps the connection thread from spinning.
    func read(at position: UInt64, into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        for _ in 0..<10 {
            if core.isStopping { return MHDReader.endWithError }
            let n = subscriber.drain(into: buffer, max: max)
            if n > 0 {
                lastWrite = .now
                return n
            }
            usleep(10_000)
        }
        if clientLeft { return MHDReader.endWithError }
        let keepAlive = core.options.keepAliveMs
        if keepAlive > 0, max >= 2, ContinuousClock.now - lastWrite >= .milliseconds(keepAlive) {
            lastWrite = .now
            buffer.storeBytes(of: 0x0D, toByteOffset: 0, as: UInt8.self)
            buffer.storeBytes(of: 0x0A, toByteOffset: 1, as: UInt8.self)
            return 2
        }
        return 0
    }
}

/// An endless "JPEG" for the client's size limit.
final class HugeBody: StreamedBody {
    let total: UInt64
    init(total: UInt64) { self.total = total }

    func read(at position: UInt64, into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        guard position < total else { return MHDReader.endOfStream }
        let n = Int(min(UInt64(max), total - position))
        memset(buffer, 0x55, n)
        // Starts like a JPEG so only the size check can stop it.
        if position == 0, n >= 2 {
            buffer.storeBytes(of: 0xFF, toByteOffset: 0, as: UInt8.self)
            buffer.storeBytes(of: 0xD8, toByteOffset: 1, as: UInt8.self)
        }
        return n
    }
}

/// MHD_CONTENT_READER_END_* are cast macros that Swift does not import.
enum MHDReader {
    static let endOfStream = -1
    static let endWithError = -2
}
