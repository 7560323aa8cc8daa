import Foundation
import Synchronization

/// The Flussonic side of the simulated operator: `GET /cctv/ID/NAME?token=T` on the API's own
/// listener. `index.m3u8` is the camera's live playlist (each segment's URI carries `?token=`, since
/// FFmpeg's HLS demuxer does not pass the playlist's query on), `segmentN.ts` its segments and
/// `preview.mp4` one frame; `index-FROM-DURATION.m3u8` and `FROM-preview.mp4` the recording, as far
/// as the kept segments reach back (see +Archive). A camera's pipeline starts with the first request
/// for it and runs until the operator stops.
final class OperatorVideoService: Sendable {
    /// The one camera token of this run, which `cctv/all` hands out: 32 random hex digits.
    let token: String
    /// Camera id → the name its picture is labelled with.
    private let labels: [Int: String]
    private let cameras = Mutex<[Int: OperatorCameraPipeline]>([:])
    private let stopped = Atomic<Bool>(false)

    /// How long the first request for a camera waits for its first segment.
    static let firstSegmentTimeout = Duration.seconds(10)

    init(labels: [Int: String]) {
        self.labels = labels
        token = (0..<2).map { _ in String(format: "%016llx", UInt64.random(in: .min ... .max)) }.joined()
    }

    /// Checks GStreamer and every element the cameras need, so a missing plugin fails the start.
    static func checkElements() throws(SimulatorError) {
        if let problem = GStreamerElements.problem(OperatorCameraPipeline.elements) {
            throw .cannotStartCameras(reason: problem)
        }
    }

    /// The answer to `path` (`/cctv/ID/NAME`) with the request's `token` argument.
    /// `range`: the request's `Range` header; the archive's MP4 honours it (a resumed export).
    func answer(path: String, token given: String?, range: String? = nil) -> OperatorReply {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "", "cctv", ID, NAME
        guard parts.count == 4, let id = Int(parts[2]), labels[id] != nil else { return Self.text(404, "no such camera") }
        guard given == token else { return Self.text(403, "wrong or missing token") }
        guard let file = OperatorVideoFile(parts[3]) else { return Self.text(404, "no such file") }
        let camera: OperatorCameraPipeline
        switch self.camera(id) {
        case .success(let started): camera = started
        case .failure(let error): return Self.text(503, error.description)
        }
        guard let playlist = camera.waitForPlaylist(timeout: Self.firstSegmentTimeout),
              let newest = OperatorCameraPipeline.segments(in: playlist).last else {
            return Self.text(503, "the camera has no picture yet")
        }
        switch file {
        case .live:
            return .bytes(status: 200, type: "application/vnd.apple.mpegurl", Data(withToken(playlist).utf8))
        case .preview:
            return preview(camera, segment: newest)
        case .segment(let name):
            guard let data = camera.segment(name) else { return Self.text(404, "the segment is gone") }
            return .bytes(status: 200, type: "video/mp2t", data)
        case .archive(let from, let seconds):
            return archive(camera, newest: newest, from: from, seconds: seconds)
        case .archivePreview(let at):
            return archivePreview(camera, newest: newest, at: at)
        case .archiveMP4(let from, let seconds):
            return archiveMP4(camera, newest: newest, from: from, seconds: seconds).ranged(range)
        }
    }

    /// The picture that begins `segment`, as an MP4.
    func preview(_ camera: OperatorCameraPipeline, segment: String) -> OperatorReply {
        guard let mp4 = OperatorCameraPreview.make(fromSegment: segment, in: camera.folder.path) else {
            return Self.text(503, "the preview could not be made")
        }
        return .bytes(status: 200, type: "video/mp4", mp4)
    }

    /// Every segment line gets `?token=`: the client fetches segments with the playlist's token.
    func withToken(_ playlist: String) -> String {
        playlist.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.isEmpty || line.hasPrefix("#") ? String(line) : "\(line)?token=\(token)"
        }.joined(separator: "\n")
    }

    /// The running pipeline of camera `id`, started now if it is not yet.
    func camera(_ id: Int) -> Result<OperatorCameraPipeline, SimulatorError> {
        let label = labels[id] ?? "CAMERA"
        return cameras.withLock { running in
            if let camera = running[id] { return .success(camera) }
            guard !stopped.load(ordering: .relaxed) else { return .failure(.cannotStartCameras(reason: "the operator is stopping")) }
            do throws(SimulatorError) {
                let camera = try OperatorCameraPipeline.start(label: label)
                running[id] = camera
                return .success(camera)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Stops every camera and removes their folders.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        let all = cameras.withLock { running in
            defer { running.removeAll() }
            return Array(running.values)
        }
        for camera in all { camera.stop() }
    }

    static func text(_ status: UInt32, _ message: String) -> OperatorReply {
        .bytes(status: status, type: "text/plain", Data((message + "\n").utf8))
    }
}
