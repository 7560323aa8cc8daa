import Foundation
import Synchronization
import IntercomBase
import IntercomHTTP

/// Saves a piece of a camera's recording (`archive-FROM-DURATION.mp4`) to a file as it arrives:
/// into `FILE.part` beside it, renamed to `FILE` only when the server ended the body and it is an
/// MP4, so a failed export never leaves a file that looks whole; a broken one continues from the part.
public enum OperatorArchiveDownload {
    /// What the camera server answered instead of the recording, as one line and an exit code.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        public let exitCode: Int32
        /// The camera server's HTTP status, when it answered with one.
        public var status: Int? = nil

        /// A refusal a newer camera address or token could cure (`cctv/all` asked again).
        public var mayBeStale: Bool { status.map { [401, 403, 404].contains($0) } ?? false }
    }

    /// Bytes in the file; `progress` is told the running total after each chunk. Throws `Failure`
    /// for the camera server's refusals and a broken transfer, `OperatorError` when it cannot be
    /// reached or written.
    ///
    /// Resumable: a transfer that breaks off keeps `FILE.part` (and, beside it, which piece it is:
    /// `FILE.part.source`, the URL without its token), and the same export run again asks for the
    /// rest with `Range: bytes=N-`. A 206 is appended; a server that answers 200 to a range (one
    /// that serves no ranges) sends the whole piece again, which replaces the part; a 416 starts over.
    /// `resumable` false (a piece that ends too recently: the server may still add to it, and a part
    /// joined to a later answer would be two different files): the part is never continued.
    public static func save(_ url: String, to path: String, op: OperatorConfig, resumable: Bool = true,
                            progress: @escaping @Sendable (Int) -> Void = { _ in }) async throws -> Int {
        let partial = path + ".part"
        let source = partial + ".source"
        // The piece without the camera's token: the token changes between logins, the piece does not.
        let piece = String(url.prefix { $0 != "?" })
        let resumeFrom = resumable ? Self.resumable(partial, source: source, piece: piece) : 0
        if resumeFrom == 0 {
            discard(partial)
            guard createNew(partial, mode: 0o644, contents: []),
                  !resumable || createNew(source, mode: 0o600, contents: Array(piece.utf8))
            else {
                throw OperatorError(operatorName: op.name, kind: .local(detail: "cannot write \(partial)"))
            }
        }
        // Never through a link: a kept part was checked to be a plain file of ours, a new one was just made.
        // Read too: the sink reads a kept part's first bytes back (is it an MP4).
        let fd = open(partial, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw OperatorError(operatorName: op.name, kind: .local(detail: "cannot write \(partial)"))
        }
        let sink = ArchiveFileSink(fd: fd, existing: resumeFrom)
        /// A write that failed (a full disk) says so, whatever else went wrong after it.
        func unwritable() -> OperatorError? {
            sink.writeFailure.map { why in
                discard(partial)
                return OperatorError(operatorName: op.name, kind: .local(detail: "cannot write \(partial): \(why); nothing was saved"))
            }
        }
        let response: HTTPResponse
        do {
            let http = try HTTPClient(configuration: HTTPClientConfiguration(
                user: "", password: "", caFile: op.caFile, connectTimeout: .seconds(5), timeout: .seconds(60),
                maxBodyBytes: 8 << 30), label: "operator.\(op.name).export")
            response = try await http.stream(url, headers: resumeFrom > 0 ? [("Range", "bytes=\(resumeFrom)-")] : [],
                                             idleTimeout: .seconds(60), receiveBuffer: Self.receiveBuffer,
                                             onOpen: { status in if status != 206 { sink.restart() } }) { chunk in
                // False after a failed write (a full disk): the transfer stops there.
                guard let total = sink.write(chunk) else { return false }
                progress(total)
                return true
            }
        } catch {
            let written = sink.close()
            if let failure = unwritable() { throw failure }
            guard written > 0 else {
                discard(partial)
                throw OperatorClient.transportError(error, operatorName: op.name)
            }
            let why = OperatorClient.transportError(error, operatorName: op.name).description
            guard resumable else {
                discard(partial)
                throw Failure(description: "\(op.name): the export broke off after \(written) bytes (\(why)); run it again", exitCode: 69)
            }
            throw Failure(description: "\(op.name): the export broke off after \(written) bytes (\(why)); "
                          + "run the same command again to continue where it stopped (\(partial) is kept)", exitCode: 69)
        }
        let written = sink.close()
        if let failure = unwritable() { throw failure }
        if response.status == 416, resumeFrom > 0 {
            // The part does not fit what the server has now: start over, once.
            discard(partial)
            return try await save(url, to: path, op: op, resumable: resumable, progress: progress)
        }
        guard (200..<300).contains(response.status) else {
            discard(partial)
            let text = OperatorError.clip(String(decoding: response.body.prefix(200), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines))
            let said = "HTTP \(response.status)" + (text.isEmpty ? "" : ": \(text)")
            switch response.status {
            case 404:
                throw Failure(description: "\(op.name): the camera server keeps no recording of that time (\(said)); "
                              + "a camera keeps only so much: ask for a later time", exitCode: 69, status: 404)
            case 401, 403:
                throw Failure(description: "\(op.name): the camera server refused the camera's token (\(said)); try again", exitCode: 77,
                              status: response.status)
            default:
                throw Failure(description: "\(op.name): the camera server did not export the recording (\(said))", exitCode: 69,
                              status: response.status)
            }
        }
        guard sink.isMP4 else {
            discard(partial)
            throw Failure(description: "\(op.name): the camera server's answer is not an MP4; nothing was saved", exitCode: 65)
        }
        // An older FILE goes first: renaming over it makes ext4 write the new file's data out then and
        // there (its auto_da_alloc), 4 ms of a 2.5 MB export. By hand: FileManager's errors cost more
        // than the rest of the finish.
        unlink(path)
        guard rename(partial, path) == 0 else {
            let why = String(cString: strerror(errno))
            throw OperatorError(operatorName: op.name, kind: .local(detail: "cannot write \(path): \(why)"))
        }
        unlink(source)
        return written
    }

    /// Read from the socket at once: a piece is megabytes, and curl's own tool reads 100 kB at a time too.
    static let receiveBuffer = 100 * 1024

    /// The bytes of `partial` to continue from: its size when it is a plain file of ours that a
    /// download of this very piece left (its `.source` says so); else 0, to start over.
    static func resumable(_ partial: String, source: String, piece: String) -> Int {
        var info = stat()
        guard lstat(partial, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(), info.st_size > 0,
              lstat(source, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
              let kept = FileManager.default.contents(atPath: source), String(decoding: kept, as: UTF8.self) == piece
        else { return 0 }
        var size = stat()
        return stat(partial, &size) == 0 ? Int(size.st_size) : 0
    }

    private static func discard(_ partial: String) {
        unlink(partial)
        unlink(partial + ".source")
    }

    /// A file made here and now (`O_EXCL`: not one that appeared since `discard`, not through a link
    /// someone left in a shared folder), with `contents`.
    private static func createNew(_ path: String, mode: mode_t, contents: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return contents.isEmpty || contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == contents.count
    }
}
