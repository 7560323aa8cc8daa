import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real RTSP server on 127.0.0.1 for the video tests: gst-rtsp-server through Debian's python3,
/// serving a moving SMPTE test pattern as H.264 (x264, baseline) plus a PCMA track at `/av0_0`, the
/// path of a Beward panel's main stream. It binds a free port itself and says which.
package final class RTSPTestServer: Sendable {
    /// What the server asks of a client.
    package enum Auth: String, Sendable { case none, basic, digest, both }

    package let port: UInt16
    private let peer: ManagedProcess
    private let directory: TestDirectory

    /// Packages the server needs, named in the failure when it does not start.
    package static let packages = "python3-gi gir1.2-gst-rtsp-server-1.0 gstreamer1.0-plugins-base "
        + "gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly"

    private init(port: UInt16, peer: ManagedProcess, directory: TestDirectory) {
        self.port = port
        self.peer = peer
        self.directory = directory
    }

    /// Starts the server and waits until it listens. Throws (never skips) when it cannot run.
    /// `port`: 0 picks a free one; a stopped server's port starts it again where clients look.
    package static func start(auth: Auth = .none, user: String = "admin", password: String = "",
                              width: Int = 320, height: Int = 240, fps: Int = 15,
                              port: UInt16 = 0) async throws -> RTSPTestServer {
        // Debian's interpreter: a pyenv python3 on PATH has no `gi`.
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { throw HarnessError.toolMissing(python) }
        let directory = try TestDirectory(prefix: "intercom-rtsp")
        let script = try directory.write(serverScript, to: "rtsp-server.py")
        let peer = ManagedProcess(name: "rtsp-server")
        let ready: String
        do {
            ready = try await peer.start(
                python,
                [script.path, "--auth", auth.rawValue, "--user", user, "--password", password,
                 "--width", String(width), "--height", String(height), "--fps", String(fps), "--port", String(port),
                 "--frames", directory.file("frames").path],
                workingDirectory: directory.url, logDirectory: directory.url, readyLine: "READY port=", timeout: TestPatience.condition)
        } catch {
            await peer.stop()
            throw HarnessError("the RTSP test server did not start (it needs \(packages); "
                + "run scripts/install-deps.sh): \(error)")
        }
        guard let port = UInt16(ready.dropFirst("READY port=".count).trimmingCharacters(in: .whitespaces)) else {
            await peer.stop()
            throw HarnessError("the RTSP test server printed no port:\n\(peer.log)")
        }
        return RTSPTestServer(port: port, peer: peer, directory: directory)
    }

    /// How many video frames the encoder has put out since the server started (all clients' media
    /// together), or nil before the first. A test measuring a client's frame rate divides by this over
    /// the same window: on a starved machine the encoder, not the client, may be what falls behind.
    package func framesSent() -> Int? {
        guard let text = try? String(contentsOf: directory.file("frames"), encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `rtsp://127.0.0.1:PORT/PATH`, without credentials.
    package func url(path: String = "/av0_0") -> String { "rtsp://127.0.0.1:\(port)\(path)" }

    /// Thaws a frozen server first, so SIGTERM reaches it.
    package func stop() async {
        thaw()
        await peer.stop()
    }

    /// SIGSTOP: the connection stays open and nothing comes, like a panel that hangs.
    package func freeze() { peer.signal(SIGSTOP) }

    package func thaw() { peer.signal(SIGCONT) }

    /// SIGKILL: the connection drops the way it does when a panel loses power.
    package func kill() async { await peer.kill() }

    /// Everything the server printed, across its runs.
    package var log: String { peer.log }

    private static let serverScript = #"""
    import argparse, ctypes, os, sys
    import gi
    gi.require_version("Gst", "1.0")
    gi.require_version("GstRtspServer", "1.0")
    from gi.repository import Gst, GstRtspServer, GLib

    parser = argparse.ArgumentParser()
    parser.add_argument("--auth", choices=["none", "basic", "digest", "both"], default="none")
    parser.add_argument("--user", default="admin")
    parser.add_argument("--password", default="")
    parser.add_argument("--width", type=int, default=320)
    parser.add_argument("--height", type=int, default=240)
    parser.add_argument("--fps", type=int, default=15)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--frames", default="")
    args = parser.parse_args()

    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(str(args.port))
    launch = (
        "( videotestsrc is-live=true pattern=smpte horizontal-speed=10 "
        f"! video/x-raw,width={args.width},height={args.height},framerate={args.fps}/1 "
        f"! x264enc name=enc tune=zerolatency speed-preset=ultrafast key-int-max={args.fps} ! video/x-h264,profile=baseline "
        "! rtph264pay name=pay0 pt=96 config-interval=1 "
        "audiotestsrc is-live=true ! audio/x-raw,rate=8000,channels=1 ! alawenc ! rtppcmapay name=pay1 pt=8 )"
    )
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(launch)
    server.get_mount_points().add_factory("/av0_0", factory)

    # The encoder's frames, counted into --frames (written aside, then renamed: a reader never sees half).
    frames = [0]
    def count(pad, info):
        frames[0] += 1
        with open(args.frames + ".new", "w") as out:
            out.write(str(frames[0]))
        os.replace(args.frames + ".new", args.frames)
        return Gst.PadProbeReturn.OK
    def configured(factory, media):
        encoder = media.get_element().get_by_name("enc")
        if args.frames and encoder is not None:
            encoder.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, count)
    factory.connect("media-configure", configured)

    if args.auth != "none":
        auth = GstRtspServer.RTSPAuth()
        token = GstRtspServer.RTSPToken()
        token.set_string("media.factory.role", "user")
        if args.auth in ("basic", "both"):
            auth.add_basic(GstRtspServer.RTSPAuth.make_basic(args.user, args.password), token)
        if args.auth in ("digest", "both"):
            auth.add_digest(args.user, args.password, token)
        # GI's set_supported_methods takes one enum value; BASIC|DIGEST needs the C call.
        methods = {"basic": 1, "digest": 2, "both": 3}[args.auth]
        lib = ctypes.CDLL("libgstrtspserver-1.0.so.0")
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.restype = ctypes.c_void_p
        get.argtypes = [ctypes.py_object, ctypes.c_char_p]
        lib.gst_rtsp_auth_set_supported_methods.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.gst_rtsp_auth_set_supported_methods(get(auth.__gpointer__, None), methods)
        server.set_auth(auth)
        permissions = GstRtspServer.RTSPPermissions()
        permissions.add_permission_for_role("user", "media.factory.access", True)
        permissions.add_permission_for_role("user", "media.factory.construct", True)
        factory.set_permissions(permissions)

    if server.attach(None) == 0:
        print("cannot attach the RTSP server", file=sys.stderr, flush=True)
        sys.exit(1)
    print(f"READY port={server.get_bound_port()}", flush=True)
    GLib.MainLoop().run()
    """#
}
