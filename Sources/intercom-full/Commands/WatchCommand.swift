import Foundation
import IntercomCLI
import IntercomDaemon
import IntercomCore
import IntercomBase
import IntercomPhone
import IntercomTUI
import IntercomScreenCommands

/// `intercom watch [PANEL|CAMERA] [--at TIME]`: the panel's camera, or an operator's camera (its
/// HLS stream, or its recording from `--at`), live in the terminal, without a call. A view
/// of the terminal client: the pictures come from the intercom's peephole hub — the panel's RTSP
/// stream at its own rate (capped by `--fps`), with its JPEG snapshots (2 a second, or `--fps`)
/// until the stream plays and whenever it cannot — and are drawn as the call screen draws them. The screen is the
/// alternate one and is always given back (q, Ctrl-C, SIGTERM, a failed panel alike). Its command line and
/// the screen attached to the daemon are `WatchScreenCommand`'s (the light `intercom` runs that one itself);
/// this is the watch with an engine of its own.
enum WatchCommand {
    static let spec = WatchScreenCommand.spec(run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        // What to show: a panel, or an operator camera and what of it.
        let target: WatchScreenCommand.Target
        switch WatchScreenCommand.target(invocation) {
        case .success(let read): target = read
        case .failure(let failure): return failure.report()
        }
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        // The daemon is the intercom: a screen started beside it attaches (the light `intercom` runs
        // that one itself; this is for a daemon that came up since it looked).
        if WatchScreenCommand.attaches(invocation, config: config) {
            return await WatchScreenCommand.runAttached(config, invocation: invocation, target: target)
        }
        // The panel's HTTP client is made here only to say in one line what is wrong with its url.
        if target.cameraID == nil, case .failure(let failure) = PanelCommand.client(invocation) {
            return failure.report()
        }
        // The intercom only for its panels, cameras and peephole: the phone is never started.
        let intercom = TUICommand.engine(config, PhoneSettings(config: config, environment: invocation.environment),
                                         invocation, logger: TUICommand.quietLogger(invocation))
        let link = LocalLink(intercom, screen: "watch")
        if let cameraID = target.cameraID {
            // Asked before the screen opens, so an unknown or unplayable camera is one line.
            do {
                try await link.watchCamera(id: cameraID, at: target.at)
            } catch {
                await intercom.stop()
                let known = error as? IntercomError
                return Console.fail(known?.description ?? "\(error)", code: known?.exitCode ?? ExitCode.failure)
            }
        }
        guard isatty(1) == 1, isatty(0) == 1 else {
            await intercom.stop()
            return Console.fail("watch needs a terminal; use 'intercom snapshot --show' for one picture", code: ExitCode.usage)
        }
        let app = WatchScreenCommand.screen(link, config: await intercom.config, invocation: invocation,
                                            watch: WatchOptions(panel: target.shown, fps: target.fps, camera: target.cameraID != nil))
        let code = await WatchScreenCommand.run(app)
        await intercom.stop()
        return code
    }
}
