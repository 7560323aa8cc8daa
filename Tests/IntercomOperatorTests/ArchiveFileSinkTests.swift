import Foundation
@testable import IntercomOperator
import Testing

/// The export's part file: a write that fails (a full disk: /dev/full answers ENOSPC) is kept and
/// said, never a trap, and nothing is written after it.
@Suite struct ArchiveFileSinkTests {
    @Test func aFullDiskIsAFailureToReportNotATrap() {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        #expect(fd >= 0, "no /dev/full")
        let sink = ArchiveFileSink(fd: fd, existing: 0)
        #expect(sink.write(Data(repeating: 7, count: 4096)) == nil)
        #expect(sink.write(Data(repeating: 7, count: 10)) == nil)
        #expect(sink.writeFailure == String(cString: strerror(ENOSPC)))
        #expect(sink.close() == 0)
    }

    @Test func aKeptPartIsContinuedAndItsStartReadBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString)").path
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("\0\0\0 ftypmp42".utf8)))
        let fd = open(path, O_RDWR | O_CLOEXEC)
        let sink = ArchiveFileSink(fd: fd, existing: 12)
        #expect(sink.isMP4)
        #expect(sink.write(Data("more".utf8)) == 16)
        #expect(sink.close() == 16)
        #expect(FileManager.default.contents(atPath: path) == Data("\0\0\0 ftypmp42more".utf8))
    }

    @Test func chunksAreAppendedAndARestartStartsTheFileOver() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString)").path
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        let sink = ArchiveFileSink(fd: fd, existing: 0)
        #expect(sink.write(Data("\0\0\0 ftypmp42".utf8)) == 12)
        #expect(sink.write(Data("more".utf8)) == 16)
        sink.restart()
        #expect(sink.write(Data("\0\0\0 ftypisom".utf8)) == 12)
        #expect(sink.close() == 12)
        #expect(sink.isMP4 && sink.writeFailure == nil)
        #expect(FileManager.default.contents(atPath: path) == Data("\0\0\0 ftypisom".utf8))
    }
}
