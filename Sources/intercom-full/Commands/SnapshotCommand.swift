import Foundation
import IntercomCLI
import IntercomCore
import IntercomTUI
import IntercomBase
import IntercomImaging
import IntercomPanel
import IntercomTerminal

/// `intercom snapshot [PANEL|CAMERA] [-o FILE.jpg] [--show] [--at TIME]`: one picture from a panel's
/// camera, or from an operator's camera (`OPERATOR:cam:ID`, now or from its recording at `--at`).
enum SnapshotCommand {
    static let spec = CommandSpec(
        name: "snapshot",
        arguments: "[PANEL|CAMERA]",
        maxPositionals: 1,
        options: [
            .value("-o", "FILE.jpg", "where to write it; '-' writes to stdout (default PANEL-DATE-TIME.jpg)"),
            .flag("--show", "draw the picture in the terminal instead of saving it (unless -o is given too)"),
            .value("--graphics", "MODE", "auto|kitty|sixel|iterm|symbols|ascii (default auto)", choices: GraphicsMode.optionChoices),
            .value("--at", "TIME", "an operator camera's recorded picture at TIME (RFC 3339 or 'YYYY-MM-DD HH:MM' local)"),
        ],
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        if let camera = OperatorCameraArguments.cameraID(invocation) {
            return await operatorSnapshot(camera, invocation)
        }
        if invocation.arguments.value("--at") != nil {
            return Console.fail("--at is for operator cameras (OPERATOR:cam:ID); a panel keeps no recording",
                                code: ExitCode.usage)
        }
        let panel: PanelConfig
        let client: BewardPanel
        switch PanelCommand.client(invocation) {
        case .success(let found): (panel, client) = found
        case .failure(let failure): return Console.fail(failure.message, code: failure.code)
        }
        let jpeg: Data
        do {
            jpeg = try await client.snapshot()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        if invocation.arguments.has("--show") {
            let shown = show(jpeg, invocation)
            guard shown == ExitCode.ok, invocation.arguments.value("-o") != nil else { return shown }
        }
        return save(jpeg, name: panel.name, invocation)
    }

    /// Writes the picture to `-o` (stdout for `-'), else to NAME-DATE-TIME.jpg.
    static func save(_ jpeg: Data, name: String, _ invocation: Invocation) -> Int32 {
        let size = (try? JPEG.size(of: jpeg)).map { "\($0)" } ?? "size unknown"
        let output = invocation.arguments.value("-o") ?? defaultName(name)
        if output == "-" {
            if let code = StandardStream.output.write(Array(jpeg)) {
                return Console.fail("cannot write the picture to stdout: \(String(cString: strerror(code)))", code: ExitCode.failure)
            }
            return ExitCode.ok
        }
        do {
            try jpeg.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            return Console.fail("cannot write \(output): \(error.localizedDescription)", code: ExitCode.failure)
        }
        Console.out("saved \(output) (\(size), \(jpeg.count / 1024) KB)")
        return ExitCode.ok
    }

    /// Draws the picture at the cursor, fitted to the terminal (80×24 when stdout is no tty).
    static func show(_ jpeg: Data, _ invocation: Invocation) -> Int32 {
        show(invocation) { renderer, area, cellPixels throws(JPEGError) in
            try JPEG.decode(jpeg, covering: renderer.decodeSize(for: area, cellPixels: cellPixels))
        }
    }

    /// Draws a decoded picture the same way.
    static func show(_ image: RGBImage, _ invocation: Invocation) -> Int32 {
        show(invocation) { _, _, _ throws(JPEGError) in image }
    }

    private static func show(_ invocation: Invocation,
                             picture: (ImageRenderer, CellArea, PixelSize) throws(JPEGError) -> RGBImage) -> Int32 {
        let capabilities = TerminalCapabilities.detect(environment: invocation.environment)
        let choice = capabilities.choose(override: invocation.arguments.value("--graphics"))
        let window = capabilities.windowSize ?? WindowSize(cols: 80, rows: 24)
        // One row stays free for the shell prompt after the picture.
        let area = CellArea(cols: window.cols, rows: max(1, window.rows - 1))
        // A still: chafa's finer symbols are worth their 25–40 ms here.
        let renderer = ImageRenderer(choice: choice, capabilities: capabilities, placement: .inline, symbolEngine: .chafa)
        let image: RGBImage
        do {
            image = try picture(renderer, area, capabilities.cellPixels)
        } catch {
            return Console.fail("the camera sent a picture that can't be shown: \(error.description)", code: ExitCode.dataError)
        }
        let frame = renderer.render(image: image, into: area, cellPixels: capabilities.cellPixels)
        TerminalWriter.standardOutput.write(frame.bytes)
        return ExitCode.ok
    }

    static func defaultName(_ panel: String) -> String {
        let safe = panel.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        return "\(String(safe))-\(LocalTime().fileStamp).jpg"
    }
}
