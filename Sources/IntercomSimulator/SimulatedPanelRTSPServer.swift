import CGstRTSPServer
import Foundation

/// "media-configure": a client's pipeline was just built; hand its `appsrc`s to the camera and hear
/// when the pipeline goes. C calls it, so it captures nothing: the feed comes through `data`.
private let mediaConfigured: intercom_gst_media_configure_cb = { _, media, data in
    guard let media, let data else { return }
    let feed = Unmanaged<CameraFeed>.fromOpaque(data).takeUnretainedValue()
    guard let video = intercom_gst_media_child(media, RTSPStreamProfile.sourceName) else { return }
    let audio = intercom_gst_media_child(media, RTSPStreamProfile.audioSourceName)
    let key = UInt(bitPattern: media)
    feed.add(CameraFeed.Source(video: video, audio: audio), media: key)
    // The handler keeps the feed alive until the media is finalized.
    let retained = Unmanaged.passRetained(feed).toOpaque()
    intercom_gst_on_media_unprepared(media, mediaUnprepared, retained, releaseFeed)
}

private let mediaUnprepared: intercom_gst_media_unprepared_cb = { media, data in
    guard let media, let data else { return }
    Unmanaged<CameraFeed>.fromOpaque(data).takeUnretainedValue().remove(media: UInt(bitPattern: media))
}

/// The closures' destroy notify: drops the reference the handler held.
private let releaseFeed: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<CameraFeed>.fromOpaque(data).release()
}

/// The simulated panel's camera over RTSP on 127.0.0.1: `/av0_0` (640×480) and `/av0_1` (352×288),
/// H.264 at `fps` with a key frame every second plus a PCMA track of silence, the porch scene with its
/// clock moving, behind the panel's user and password (Digest, Basic or both, as the HTTP side).
/// gst-rtsp-server does the protocol (interleaved TCP and UDP); its GLib main loop runs on a thread of
/// its own.
public final class SimulatedPanelRTSPServer: Sendable {
    /// The bound port (0 asked for a free one).
    public let port: UInt16
    public let fps: Int
    private let loop: RTSPMainLoop
    private let feed: CameraFeed

    private init(port: UInt16, fps: Int, loop: RTSPMainLoop, feed: CameraFeed) {
        self.port = port
        self.fps = fps
        self.loop = loop
        self.feed = feed
    }

    /// Starts listening on 127.0.0.1:`port` (0 = any free port). Throws `SimulatorError.cannotStartRTSP`
    /// when GStreamer or one of its plugins is missing or the port is taken.
    public static func start(port: UInt16 = 0, user: String, password: String, auth: SimulatedPanelOptions.Auth,
                             fps: Int = 25, label: String = "DKS SIM") throws(SimulatorError) -> SimulatedPanelRTSPServer {
        func fail(_ reason: String) -> SimulatorError { .cannotStartRTSP(port: port, reason: reason) }
        guard (1...60).contains(fps) else { throw fail("the frame rate must be 1-60, not \(fps)") }
        if let problem = GStreamerElements.problem(RTSPStreamProfile.elements) { throw fail(problem) }
        let feed = CameraFeed(fps: fps, label: label)
        guard let server = gst_rtsp_server_new() else { throw fail("out of memory") }
        gst_rtsp_server_set_address(server, "127.0.0.1")
        gst_rtsp_server_set_service(server, String(port))
        if let mounts = gst_rtsp_server_get_mount_points(server) {
            for profile in RTSPStreamProfile.all {
                mount(profile, on: mounts, fps: fps, feed: feed)
            }
            g_object_unref(mounts)
        }
        protect(server, user: user, password: password, auth: auth)

        var bindError: UnsafeMutablePointer<GError>?
        guard let source = gst_rtsp_server_create_source(server, nil, &bindError) else {
            defer { g_clear_error(&bindError) }
            g_object_unref(server)
            throw fail(GStreamerElements.message(bindError))
        }
        let bound = UInt16(clamping: gst_rtsp_server_get_bound_port(server))
        let loop = RTSPMainLoop(server: server, source: source)
        loop.start()
        feed.start()
        return SimulatedPanelRTSPServer(port: bound, fps: fps, loop: loop, feed: feed)
    }

    /// `rtsp://127.0.0.1:PORT/av0_0` (or the profile's path), without credentials.
    public func url(_ profile: RTSPStreamProfile = .main) -> String { "rtsp://127.0.0.1:\(port)\(profile.path)" }

    /// Clients being sent pictures right now.
    public var clientCount: Int { feed.clientCount }

    /// Pictures rendered since the start (once per tick while anyone watches).
    public var framesRendered: Int { feed.frames }

    /// What the camera is doing, for a failing test's message: "2 clients (1 playing), 75 pictures rendered".
    public var feedSummary: String {
        "\(feed.clientCount) client(s) (\(feed.playingClientCount) playing), \(feed.frames) pictures rendered"
    }

    /// Closes every client and the listening socket, then stops the camera. Safe to call twice.
    public func stop() {
        loop.stop()
        feed.stop()
    }

    deinit { stop() }

    private static func mount(_ profile: RTSPStreamProfile, on mounts: UnsafeMutablePointer<GstRTSPMountPoints>,
                              fps: Int, feed: CameraFeed) {
        guard let factory = gst_rtsp_media_factory_new() else { return }
        gst_rtsp_media_factory_set_launch(factory, profile.launch(fps: fps))
        // Not shared: each client gets its own pipeline, starting on a key frame, as a panel's encoder does.
        gst_rtsp_media_factory_set_shared(factory, 0)
        let retained = Unmanaged.passRetained(feed).toOpaque()
        intercom_gst_on_media_configure(factory, mediaConfigured, retained, releaseFeed)
        let permissions = gst_rtsp_permissions_new()
        if let permissions {
            gst_rtsp_permissions_add_permission_for_role(permissions, "user", "media.factory.access", 1)
            gst_rtsp_permissions_add_permission_for_role(permissions, "user", "media.factory.construct", 1)
            gst_rtsp_media_factory_set_permissions(factory, permissions)
            gst_rtsp_permissions_unref(permissions)
        }
        // The mount points take the factory's reference.
        gst_rtsp_mount_points_add_factory(mounts, profile.path, factory)
    }

    /// Every request must carry the panel's user and password, in the schemes `auth` offers.
    private static func protect(_ server: UnsafeMutablePointer<GstRTSPServer>, user: String, password: String,
                                auth: SimulatedPanelOptions.Auth) {
        guard let checker = gst_rtsp_auth_new() else { return }
        var methods: UInt32 = 0
        if auth != .digest, let token = intercom_gst_token_for_role("user"), let basic = gst_rtsp_auth_make_basic(user, password) {
            gst_rtsp_auth_add_basic(checker, basic, token)
            g_free(basic)
            gst_rtsp_token_unref(token)
            methods |= GST_RTSP_AUTH_BASIC.rawValue
        }
        if auth != .basic, let token = intercom_gst_token_for_role("user") {
            gst_rtsp_auth_add_digest(checker, user, password, token)
            gst_rtsp_token_unref(token)
            methods |= GST_RTSP_AUTH_DIGEST.rawValue
        }
        gst_rtsp_auth_set_supported_methods(checker, GstRTSPAuthMethod(rawValue: methods))
        gst_rtsp_auth_set_realm(checker, "Beward")
        gst_rtsp_server_set_auth(server, checker)
        g_object_unref(checker)
    }
}
