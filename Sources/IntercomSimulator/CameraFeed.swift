import CGstRTSPServer
import Foundation
import Synchronization

/// The simulated camera: one thread that renders the porch scene `fps` times a second and pushes
/// each picture (and a frame's worth of silence) to every client's `appsrc`s. A picture is rendered
/// once however many clients watch (GStreamer buffers are shared by reference), and not at all while
/// nobody watches. A client's `appsrc` gets pictures only while it is PLAYING: it stamps each on arrival
/// (do-timestamp), and one pushed while its pipeline was still starting (the clock given, the base time
/// not yet) carried the clock's absolute time, as far ahead as the machine's uptime, so that client's
/// stream went silent (docs/PROOF.md, "The suite's runs").
final class CameraFeed: Sendable {
    let fps: Int
    private let label: String

    /// A client pipeline's `appsrc`s, each holding a reference of its own until the media goes.
    struct Source: @unchecked Sendable {
        // Only touched under `sources`' lock; GStreamer's appsrc push is thread-safe.
        let video: UnsafeMutablePointer<GstElement>
        let audio: UnsafeMutablePointer<GstElement>?

        func release() {
            gst_object_unref(video)
            if let audio { gst_object_unref(audio) }
        }
    }

    /// Keyed by the media's address: "unprepared" names the media, not the element.
    private let sources = Mutex<[UInt: Source]>([:])
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let framesSent = Atomic<Int>(0)

    init(fps: Int, label: String) {
        self.fps = fps
        self.label = label
    }

    /// Starts the render thread.
    func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            self.run()
            self.done.signal()
        }
        thread.name = "intercom.camera"
        thread.start()
    }

    /// Stops the render thread, waits for it, and lets go of every source.
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        done.wait()
        let gone = sources.withLock { all in
            defer { all.removeAll() }
            return Array(all.values)
        }
        for source in gone { source.release() }
    }

    /// Pictures rendered and pushed so far (a picture counts once, whatever the number of clients).
    var frames: Int { framesSent.load(ordering: .relaxed) }

    /// Clients being fed right now.
    var clientCount: Int { sources.withLock { $0.count } }

    /// Clients whose picture source is PLAYING (the others' pipelines are starting, paused or going).
    var playingClientCount: Int {
        sources.withLock { all in all.values.filter { intercom_gst_element_is_playing($0.video) != 0 }.count }
    }

    /// A new client's pipeline: feed its `appsrc`s (the references are ours now).
    func add(_ source: Source, media: UInt) {
        let replaced = sources.withLock { all in
            defer { all[media] = source }
            return all[media]
        }
        replaced?.release()
    }

    /// A client's pipeline went away.
    func remove(media: UInt) {
        sources.withLock { $0.removeValue(forKey: media) }?.release()
    }

    private func run() {
        let clock = ContinuousClock()
        let interval = Duration.seconds(1) / fps
        var next = clock.now
        var frame = 0
        while running.load(ordering: .acquiring) {
            next += interval
            if clientCount > 0 {
                push(frame: frame)
                frame += 1
            }
            let now = clock.now
            // Behind by more than a frame (a stalled machine): skip ahead rather than burst.
            if next < now - interval { next = now }
            if next > now { Thread.sleep(forTimeInterval: Double((next - now) / .milliseconds(1)) / 1000) }
        }
    }

    /// Renders one picture and hands a reference of the same buffer to every client.
    private func push(frame: Int) {
        let image = SyntheticFrame.render(frame: frame, label: label, time: SimulatorCore.clockText())
        let buffer = image.pixels.withUnsafeBytes { bytes in
            intercom_gst_buffer_copying(bytes.baseAddress, gsize(bytes.count))
        }
        guard let buffer else { return }
        let silence = [UInt8](repeating: 0, count: RTSPStreamProfile.audioRate / fps * 2).withUnsafeBytes { bytes in
            intercom_gst_buffer_copying(bytes.baseAddress, gsize(bytes.count))
        }
        sources.withLock { all in
            for source in all.values {
                // push_buffer takes the reference; a leaky queue never blocks this thread.
                Self.pushIfPlaying(buffer, to: source.video)
                if let audio = source.audio, let silence { Self.pushIfPlaying(silence, to: audio) }
            }
        }
        intercom_gst_buffer_unref(buffer)
        if let silence { intercom_gst_buffer_unref(silence) }
        framesSent.add(1, ordering: .relaxed)
    }

    /// Hands `appsrc` a reference of its own to `buffer`, once it is PLAYING: before that its stamp
    /// (clock time less base time) can be the clock's absolute time, which holds the stream that long.
    /// A picture missed while the pipeline starts costs nothing: the next comes a frame later.
    private static func pushIfPlaying(_ buffer: UnsafeMutablePointer<GstBuffer>, to element: UnsafeMutablePointer<GstElement>) {
        guard intercom_gst_element_is_playing(element) != 0 else { return }
        let appsrc = UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstAppSrc.self)
        _ = gst_app_src_push_buffer(appsrc, intercom_gst_buffer_ref(buffer))
    }
}
