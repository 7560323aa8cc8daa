import Foundation
import Synchronization
import IntercomBase
import IntercomHTTP

/// Saves a piece of a camera's recording (`archive-FROM-DURATION.mp4`) to a file as it arrives:
/// into `FILE.part` beside it, renamed to `FILE` only when the server ended the body and it is an
/// MP4, so a failed export never leaves a file that looks whole.
public enum OperatorArchiveDownload {
    /// What the camera server answered instead of the recording, as one line and an exit code.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        public let exitCode: Int32
    }

    /// Bytes written; `progress` is told the running total after each chunk. Throws `Failure`
    /// for the camera server's refusals and `OperatorError` when it cannot be reached or written.
    public static func save(_ url: String, to path: String, op: OperatorConfig,
                            progress: @escaping @Sendable (Int) -> Void = { _ in }) async throws -> Int {
        let partial = path + ".part"
        guard FileManager.default.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o644]),
              let handle = FileHandle(forWritingAtPath: partial) else {
            throw OperatorError(operatorName: op.name, kind: .local(detail: "cannot write \(partial)"))
        }
        let sink = FileSink(handle)
        let response: HTTPResponse
        do {
            let http = try HTTPClient(configuration: HTTPClientConfiguration(
                user: "", password: "", caFile: op.caFile, connectTimeout: .seconds(5), timeout: .seconds(60),
                maxBodyBytes: 8 << 30), label: "operator.\(op.name).export")
            response = try await http.stream(url, idleTimeout: .seconds(60)) { chunk in
                progress(sink.write(chunk))
            }
        } catch {
            sink.close()
            try? FileManager.default.removeItem(atPath: partial)
            throw OperatorClient.transportError(error, operatorName: op.name)
        }
        let written = sink.close()
        guard (200..<300).contains(response.status) else {
            try? FileManager.default.removeItem(atPath: partial)
            let text = OperatorError.clip(String(decoding: response.body.prefix(200), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines))
            let said = "HTTP \(response.status)" + (text.isEmpty ? "" : ": \(text)")
            switch response.status {
            case 404:
                throw Failure(description: "\(op.name): the camera server keeps no recording of that time (\(said)); "
                              + "a camera keeps only so much: ask for a later time", exitCode: 69)
            case 401, 403:
                throw Failure(description: "\(op.name): the camera server refused the camera's token (\(said)); try again", exitCode: 77)
            default:
                throw Failure(description: "\(op.name): the camera server did not export the recording (\(said))", exitCode: 69)
            }
        }
        guard sink.isMP4 else {
            try? FileManager.default.removeItem(atPath: partial)
            throw Failure(description: "\(op.name): the camera server's answer is not an MP4; nothing was saved", exitCode: 65)
        }
        do {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: partial, toPath: path)
        } catch {
            throw OperatorError(operatorName: op.name, kind: .local(detail: "cannot write \(path): \(error.localizedDescription)"))
        }
        return written
    }

    /// The file being written, from the transfer's thread.
    private final class FileSink: Sendable {
        private struct State {
            var handle: FileHandle?
            var written = 0
            var head = Data()
        }
        private let state: Mutex<State>

        init(_ handle: FileHandle) { state = Mutex(State(handle: handle)) }

        /// Appends `chunk`; returns the bytes written so far.
        func write(_ chunk: Data) -> Int {
            state.withLock { s in
                s.handle?.write(chunk)
                if s.head.count < 12 { s.head.append(chunk.prefix(12 - s.head.count)) }
                s.written += chunk.count
                return s.written
            }
        }

        @discardableResult
        func close() -> Int {
            state.withLock { s in
                try? s.handle?.close()
                s.handle = nil
                return s.written
            }
        }

        /// An ISO media file begins with a box whose type is `ftyp`.
        var isMP4: Bool { state.withLock { $0.head.count >= 8 && $0.head[4..<8] == Data("ftyp".utf8) } }
    }
}
