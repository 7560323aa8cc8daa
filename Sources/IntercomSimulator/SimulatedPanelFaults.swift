/// The faults a simulated panel's HTTP side shows, switchable while it runs
/// (`SimulatedPanelHTTPServer.setFaults`), so one test can walk a daemon through a panel
/// that goes bad and recovers. They apply to requests that arrive from then on; an alarm
/// stream already open stays as it is.
public struct SimulatedPanelFaults: Sendable, Equatable {
    /// Every response waits this long first (a slow or overloaded panel).
    public var delayMs: Int
    /// `images_cgi` sends bytes that are not a JPEG, still labelled image/jpeg.
    public var brokenJPEG: Bool
    /// `images_cgi` sends the first half of a real JPEG.
    public var truncatedJPEG: Bool
    /// Every CGI answers 500 Internal Server Error (a firmware in trouble).
    public var serverError: Bool
    /// The DKS light's `Enable=on` hangs this long before its answer (an output that hangs the
    /// firmware): the client's `on` times out, and its `off` must still arrive.
    public var stallLightOnMs: Int

    public init(delayMs: Int = 0, brokenJPEG: Bool = false, truncatedJPEG: Bool = false, serverError: Bool = false,
                stallLightOnMs: Int = 0) {
        self.delayMs = delayMs
        self.brokenJPEG = brokenJPEG
        self.truncatedJPEG = truncatedJPEG
        self.serverError = serverError
        self.stallLightOnMs = stallLightOnMs
    }

    public static let none = SimulatedPanelFaults()
}
