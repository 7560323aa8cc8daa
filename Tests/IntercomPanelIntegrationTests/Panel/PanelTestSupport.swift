import Foundation
@testable import IntercomSimulator
import IntercomPanel
import IntercomImaging
import IntercomHTTP
import IntercomTestSupport
import IntercomBase

/// A started simulated panel and a client pointed at it.
struct PanelFixture {
    let server: SimulatedPanelHTTPServer
    let panel: BewardPanel

    init(
        _ options: SimulatedPanelOptions = .init(),
        user: String = "admin",
        password: String = "admin",
        auth: PanelAuth = .digest,
        model: PanelModel = .auto,
        timeout: Duration = .seconds(3),
        maxBodyBytes: Int = 8 << 20
    ) throws {
        server = SimulatedPanelHTTPServer(options: options)
        try server.start()
        panel = try BewardPanel(
            name: "test", baseURL: server.baseURL, user: user, password: password,
            auth: auth, model: model, timeout: timeout, maxBodyBytes: maxBodyBytes)
    }
}

/// Runs `body` and returns the PanelError it threw, or nil.
func panelError<T>(_ body: () async throws(PanelError) -> T) async -> PanelError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
