import Glibc
import IntercomImaging
import IntercomTerminal
import IntercomBase

/// What the terminal can show, as a value: computed from the environment passed in plus the
/// probe's answers, so every decision is testable without a terminal.
public struct TerminalCapabilities: Sendable, Equatable {
    public var environment: [String: String]
    public var answers: TerminalAnswers
    /// False when stdout is not a terminal (a pipe, a file): no probing, no pixel protocols.
    public var isTTY: Bool
    public var windowSize: WindowSize?

    public init(environment: [String: String], answers: TerminalAnswers = .none, isTTY: Bool = true,
                windowSize: WindowSize? = nil) {
        self.environment = environment
        self.answers = answers
        self.isTTY = isTTY
        self.windowSize = windowSize
    }

    /// Probes the controlling terminal when stdout is one (within the probe's budget).
    public static func detect(environment: [String: String], stdoutFD: Int32 = 1,
                              probe: TerminalProbe = TerminalProbe()) -> TerminalCapabilities {
        let tty = isatty(stdoutFD) == 1
        var probe = probe
        let unprobed = TerminalCapabilities(environment: environment, isTTY: tty, windowSize: WindowSize.of(fd: stdoutFD))
        if unprobed.inMultiplexer { probe.askKitty = false }
        var capabilities = unprobed
        if tty && env(environment, "TERM") != "dumb" { capabilities.answers = probe.probeControllingTerminal() }
        return capabilities
    }

    private static func env(_ environment: [String: String], _ key: String) -> String? {
        environment[key].flatMap { $0.isEmpty ? nil : $0 }
    }
    private func env(_ key: String) -> String? { Self.env(environment, key) }

    public var term: String { env("TERM") ?? "" }

    /// tmux or GNU screen between us and the terminal.
    public var inMultiplexer: Bool {
        env("TMUX") != nil || env("STY") != nil || term.hasPrefix("tmux") || term.hasPrefix("screen")
    }

    public var inTmux: Bool { env("TMUX") != nil || term.hasPrefix("tmux") }

    public var colorDepth: ColorDepth {
        if env("NO_COLOR") != nil { return .none }
        if term == "dumb" { return .none }
        let colorterm = (env("COLORTERM") ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" || term.hasSuffix("-direct") { return .truecolor }
        if term == "xterm-kitty" || env("KITTY_WINDOW_ID") != nil || ["iTerm.app", "WezTerm"].contains(env("TERM_PROGRAM") ?? "") {
            return .truecolor
        }
        if term.contains("256color") { return .indexed256 }
        return .indexed16
    }

    /// The cell size in pixels: the terminal's answer, else the window's pixels over its cells,
    /// else 10×20 (a typical cell: twice as tall as wide).
    public var cellPixels: PixelSize {
        if let cell = answers.cellPixels { return cell }
        if let size = windowSize {
            if let window = answers.windowPixels {
                return PixelSize(width: max(1, window.width / size.cols), height: max(1, window.height / size.rows))
            }
            if size.pixelWidth > 0, size.pixelHeight > 0 {
                return PixelSize(width: max(1, size.pixelWidth / size.cols), height: max(1, size.pixelHeight / size.rows))
            }
        }
        return PixelSize(width: 10, height: 20)
    }

    /// The mode for `--graphics`: nil or "auto" decides from what was detected.
    public func choose(override: String? = nil) -> GraphicsChoice {
        if let override, override != "auto", let mode = GraphicsMode(rawValue: override) {
            let wrap = mode.isPixel && inTmux
            return GraphicsChoice(mode: mode, reason: "--graphics \(override)"
                + (wrap ? " (wrapped for tmux passthrough; needs `set -g allow-passthrough on`)" : ""),
                tmuxPassthrough: wrap)
        }
        if !isTTY { return GraphicsChoice(mode: .symbols, reason: "stdout is not a terminal: coloured characters, no pixel protocol") }
        if term.isEmpty || term == "dumb" { return GraphicsChoice(mode: .ascii, reason: "TERM is \(term.isEmpty ? "unset" : "dumb")") }
        if env("NO_COLOR") != nil { return GraphicsChoice(mode: .ascii, reason: "NO_COLOR is set") }
        if inMultiplexer {
            return GraphicsChoice(mode: .symbols, reason: "inside \(inTmux ? "tmux" : "screen"): pixel pictures need passthrough "
                + "and vanish on redraw; --graphics kitty|sixel|iterm forces them")
        }
        if answers.kittyGraphics { return GraphicsChoice(mode: .kitty, reason: "the terminal answered the kitty graphics query") }
        if !answers.complete, term == "xterm-kitty" || env("KITTY_WINDOW_ID") != nil {
            return GraphicsChoice(mode: .kitty, reason: "TERM/KITTY_WINDOW_ID name kitty (no query answer)")
        }
        if env("TERM_PROGRAM") == "iTerm.app" || env("LC_TERMINAL") == "iTerm2" {
            return GraphicsChoice(mode: .iterm, reason: "TERM_PROGRAM/LC_TERMINAL name iTerm2")
        }
        if answers.sixel { return GraphicsChoice(mode: .sixel, reason: "DA1 lists attribute 4 (sixel)") }
        let heard = answers.complete ? "the terminal answered but offers no pixel protocol"
            : (answers.deviceAttributes == nil ? "no answer to the terminal queries" : "no pixel protocol in the answers")
        return GraphicsChoice(mode: .symbols, reason: "\(heard): coloured characters")
    }

    /// Text for `intercom doctor`: what was detected and why the mode was picked.
    public func report(override: String? = nil) -> String {
        let choice = choose(override: override)
        var lines = [
            "graphics: \(choice.mode.rawValue) — \(choice.reason)",
            "terminal: TERM=\(env("TERM") ?? "(unset)") COLORTERM=\(env("COLORTERM") ?? "(unset)")"
                + (env("TERM_PROGRAM").map { " TERM_PROGRAM=\($0)" } ?? "")
                + (inMultiplexer ? " (in \(inTmux ? "tmux" : "screen"))" : ""),
            "colours: \(colorDepth.rawValue)",
        ]
        if !isTTY {
            lines.append("queries: not sent (stdout is not a terminal)")
        } else {
            let da1 = answers.deviceAttributes.map { $0.map(String.init).joined(separator: ";") } ?? "no answer"
            lines.append("queries: DA1 \(da1); kitty graphics \(answers.kittyGraphics ? "yes" : "no"); "
                + "cell \(answers.cellPixels.map { "\($0) px" } ?? "not reported"); "
                + (answers.complete ? "all answered" : "timed out"))
        }
        if let size = windowSize { lines.append("size: \(size.cols)×\(size.rows) cells, cell \(cellPixels) px") }
        return lines.joined(separator: "\n")
    }
}
