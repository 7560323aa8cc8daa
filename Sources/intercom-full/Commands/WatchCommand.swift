import Foundation
import IntercomCLI
import IntercomEngine
import IntercomTUI

/// `intercom watch [PANEL]`: the panel's camera, live in the terminal, without a call.
/// Snapshots are polled at `--fps`, one request in flight; the screen is the alternate one and
/// is always given back (q, Ctrl-C, SIGTERM, a failed panel alike).
enum WatchCommand {
    static let spec = CommandSpec(
        name: "watch",
        summary: "show a panel's camera live in the terminal, without a call (q quits)",
        arguments: "[PANEL]",
        maxPositionals: 1,
        options: [
            .value("--graphics", "MODE", "auto|kitty|sixel|iterm|symbols|ascii (default auto)", choices: GraphicsMode.optionChoices),
            .value("--fps", "N", "pictures per second to fetch, 0.2–30 (default 2)"),
        ],
        run: run)

    enum Event: Sendable {
        case picture(Data)
        case failed(String)
        case input([UInt8])
        case resize
        case quit
    }

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let fps = invocation.arguments.value("--fps").map { Double($0) ?? -1 } ?? 2
        guard fps >= 0.2, fps <= 30 else {
            return Console.fail("--fps takes a number from 0.2 to 30; see 'intercom watch --help'", code: ExitCode.usage)
        }
        let panel: PanelConfig
        let client: BewardPanel
        switch PanelCommand.client(invocation) {
        case .success(let found): (panel, client) = found
        case .failure(let failure): return Console.fail(failure.message, code: failure.code)
        }
        guard isatty(1) == 1, isatty(0) == 1 else {
            return Console.fail("watch needs a terminal; use 'intercom snapshot --show' for one picture", code: ExitCode.usage)
        }
        let capabilities = TerminalCapabilities.detect(environment: invocation.environment)
        let choice = capabilities.choose(override: invocation.arguments.value("--graphics"))
        invocation.logger.info("graphics: \(choice.mode.rawValue) — \(choice.reason)")
        let renderer = ImageRenderer(choice: choice, capabilities: capabilities, placement: .absolute, symbolEngine: .fast)
        guard let raw = RawMode(fd: 0) else {
            return Console.fail("cannot switch the terminal to raw input", code: ExitCode.failure)
        }
        // Alternate screen, cursor hidden; undone below whatever ends the loop.
        TerminalOutput.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        defer {
            // A kitty image (inside tmux even past the alternate screen) stays until deleted.
            TerminalOutput.write(renderer.eraseBytes())
            TerminalOutput.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
            raw.restore()
        }

        let (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let signals = SignalWatcher([SIGINT, SIGTERM, SIGHUP, SIGWINCH])
        let tasks = [
            Task {
                for await number in signals.signals { continuation.yield(number == SIGWINCH ? .resize : .quit) }
            },
            Task { await fetch(client, fps: fps, into: continuation) },
            Task { await readKeys(into: continuation) },
        ]
        defer { tasks.forEach { $0.cancel() } }

        // Inside tmux a forced pixel mode needs the pane's place on the real terminal.
        let findPane = { if choice.tmuxPassthrough { renderer.paneOrigin = TmuxPane.origin(environment: invocation.environment) } }
        findPane()
        var screen = WatchScreen(panel: panel.name, fps: fps, mode: choice.mode, renderer: renderer,
                                 cellPixels: capabilities.cellPixels)
        screen.resize(to: WindowSize.of(fd: 1) ?? WindowSize(cols: 80, rows: 24))
        for await event in events {
            switch event {
            case .picture(let jpeg): screen.show(jpeg)
            case .failed(let message): screen.status(error: message)
            case .resize:
                findPane()
                screen.resize(to: WindowSize.of(fd: 1) ?? WindowSize(cols: 80, rows: 24))
            case .input(let bytes):
                // q, Q, Ctrl-C, Ctrl-D quit; Ctrl-L redraws.
                if bytes.contains(where: { [0x71, 0x51, 0x03, 0x04].contains($0) }) { return ExitCode.ok }
                if bytes.contains(0x0C) { screen.resize(to: WindowSize.of(fd: 1) ?? WindowSize(cols: 80, rows: 24)) }
            case .quit:
                return ExitCode.ok
            }
        }
        return ExitCode.ok
    }

    /// Polls the panel: the next request starts a slot after the last began, or at once when
    /// the panel was slower than a slot, so a slow panel slows the picture, never piles up.
    static func fetch(_ client: BewardPanel, fps: Double, into continuation: AsyncStream<Event>.Continuation) async {
        let clock = ContinuousClock()
        let slot = Duration.milliseconds(Int(1000 / fps))
        while !Task.isCancelled {
            let started = clock.now
            do {
                continuation.yield(.picture(try await client.snapshot()))
            } catch {
                continuation.yield(.failed(error.description))
            }
            let next = started.advanced(by: slot)
            if next > clock.now { try? await Task.sleep(until: next, clock: clock) }
        }
    }

    /// Keys from the raw tty, polled without blocking a cooperative thread.
    static func readKeys(into continuation: AsyncStream<Event>.Continuation) async {
        var buffer = [UInt8](repeating: 0, count: 64)
        // A terminal's late answers to the probe are no key presses.
        var filter = EscapeFilter()
        while !Task.isCancelled {
            var pfd = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 0) > 0 {
                let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                let keys = n > 0 ? buffer[0..<n].filter { filter.isKey(Int32($0)) } : []
                if !keys.isEmpty { continuation.yield(.input(keys)) }
                if n == 0 { continuation.yield(.quit); return }  // the terminal went away
            }
            try? await Task.sleep(for: .milliseconds(30))
        }
    }
}
