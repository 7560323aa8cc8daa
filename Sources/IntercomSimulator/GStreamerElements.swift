import CGstRTSPServer

/// GStreamer's start and the plugins a pipeline needs, checked before anything is built, so a
/// missing plugin is one clear line naming its Debian package rather than a pipeline that never plays.
enum GStreamerElements {
    /// Starts GStreamer and looks every element up; nil when all is there, else why not (one line).
    static func problem(_ elements: [(element: String, package: String)]) -> String? {
        var initError: UnsafeMutablePointer<GError>?
        guard gst_init_check(nil, nil, &initError) != 0 else {
            defer { g_clear_error(&initError) }
            return "GStreamer did not start (\(message(initError)))"
        }
        for (element, package) in elements {
            guard let factory = gst_element_factory_find(element) else {
                return "GStreamer's \(element) is missing (Debian: \(package); scripts/install-deps.sh installs it)"
            }
            gst_object_unref(UnsafeMutableRawPointer(factory))
        }
        return nil
    }

    /// A GError's text.
    static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error, let text = error.pointee.message else { return "unknown error" }
        return String(cString: text)
    }
}
