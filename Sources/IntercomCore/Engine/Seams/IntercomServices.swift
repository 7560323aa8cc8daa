import IntercomBase
import IntercomOperator
import IntercomPanel
import IntercomPhone

/// The outside world as the engine reaches it: the phone, each panel's HTTP API, each operator's
/// API, live video and the clock. `.system` is what the program runs on; the engine tests build an
/// `Intercom` on fakes and a manual clock (Tests/IntercomCoreFakes).
public struct IntercomServices: Sendable {
    /// Starts the phone with these settings; throws `PhoneError` (a port in use → exit 69).
    public var startPhone: @Sendable (PhoneSettings, Logger) async throws -> any PhoneService
    /// The HTTP client of one configured panel.
    public var panel: @Sendable (PanelConfig) throws -> any PanelService
    /// A client of one operator's API with the stored token (nil: not logged in) and the store that keeps
    /// what the client learns of the server (its zone, from an opening's probe).
    public var operatorClient: @Sendable (OperatorConfig, String?, OperatorTokenStore?) throws(OperatorError) -> any OperatorService
    public var video: any LiveVideoService
    public var clock: any EngineClock

    public init(startPhone: @escaping @Sendable (PhoneSettings, Logger) async throws -> any PhoneService,
                panel: @escaping @Sendable (PanelConfig) throws -> any PanelService,
                operatorClient: @escaping @Sendable (OperatorConfig, String?, OperatorTokenStore?) throws(OperatorError) -> any OperatorService,
                video: any LiveVideoService, clock: any EngineClock) {
        self.startPhone = startPhone
        self.panel = panel
        self.operatorClient = operatorClient
        self.video = video
        self.clock = clock
    }

    /// liblinphone, libcurl, FFmpeg and the system clock.
    public static let system = IntercomServices(
        startPhone: { settings, logger in try await Phone.start(settings, logger: logger) },
        panel: { config in try BewardPanel(panelConfig: config) },
        operatorClient: { config, token, store throws(OperatorError) in try OperatorClient(config: config, token: token, store: store) },
        video: FFmpegVideoService(),
        clock: SystemClock())
}
