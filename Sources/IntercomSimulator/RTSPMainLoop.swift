import CGstRTSPServer
import Foundation
import Synchronization

/// Runs on the server's own thread (g_main_context_invoke): closes the clients and ends the loop there,
/// so nothing else touches the server's sources while it runs.
private let shutDownOnLoop: GSourceFunc = { data in
    guard let data else { return 0 }
    let loop = Unmanaged<RTSPMainLoop>.fromOpaque(data).takeUnretainedValue()
    loop.shutDown()
    return 0
}

/// The server's GLib main loop on a thread of its own, and the way to end it from another thread.
final class RTSPMainLoop: @unchecked Sendable {
    // The pointers are set once in init; after `start` only the loop's thread uses the server and
    // source (shutDown runs there), and `stop` waits for that thread before dropping them.
    private let server: UnsafeMutablePointer<GstRTSPServer>
    private let source: UnsafeMutablePointer<GSource>
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let done = DispatchSemaphore(value: 0)
    private let state = Mutex<Phase>(.created)

    private enum Phase { case created, running, stopped }

    init(server: UnsafeMutablePointer<GstRTSPServer>, source: UnsafeMutablePointer<GSource>) {
        self.server = server
        self.source = source
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        g_source_attach(source, context)
    }

    func start() {
        guard state.withLock({ phase in
            guard phase == .created else { return false }
            phase = .running
            return true
        }) else { return }
        let thread = Thread { [self] in
            g_main_context_push_thread_default(self.context)
            g_main_loop_run(self.loop)
            g_main_context_pop_thread_default(self.context)
            self.done.signal()
        }
        thread.name = "intercom.rtsp"
        thread.start()
    }

    /// Called on the loop's thread: no more connections, no clients, then the loop returns.
    fileprivate func shutDown() {
        g_source_destroy(source)
        intercom_gst_close_clients(server)
        g_main_loop_quit(loop)
    }

    func stop() {
        let wasRunning = state.withLock { phase -> Bool in
            defer { phase = .stopped }
            return phase == .running
        }
        guard wasRunning else { return }
        g_main_context_invoke(context, shutDownOnLoop, Unmanaged.passUnretained(self).toOpaque())
        done.wait()
    }

    deinit {
        stop()
        g_source_unref(source)
        g_object_unref(server)
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }
}
