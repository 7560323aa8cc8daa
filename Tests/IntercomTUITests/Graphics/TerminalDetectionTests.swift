import Foundation
import IntercomCore
import IntercomTUI
import Testing
import IntercomTestSupport
import IntercomImaging

@Suite("Terminal detection")
struct TerminalDetectionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var env: [String: String]
        var answers: TerminalAnswers
        var override: String?
        var isTTY = true
        var expected: GraphicsMode
        var testDescription: String { "\(env) \(override ?? "auto") → \(expected)" }
    }

    static let kittyAnswers = TerminalAnswers(deviceAttributes: [62, 22], kittyGraphics: true, complete: true)
    static let sixelAnswers = TerminalAnswers(deviceAttributes: [62, 4, 22], complete: true)
    static let plainAnswers = TerminalAnswers(deviceAttributes: [62, 22], complete: true)

    static let cases: [Case] = [
        Case(env: ["TERM": "xterm-kitty"], answers: kittyAnswers, expected: .kitty),
        Case(env: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], answers: .none, expected: .kitty),
        Case(env: ["TERM": "foot"], answers: sixelAnswers, expected: .sixel),
        Case(env: ["TERM": "xterm-256color"], answers: plainAnswers, expected: .symbols),
        Case(env: ["TERM": "xterm-256color"], answers: .none, expected: .symbols),
        Case(env: ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], answers: .none, expected: .iterm),
        Case(env: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"], answers: sixelAnswers, expected: .symbols),
        Case(env: ["TERM": "screen", "TMUX": "/tmp/x,1,0"], answers: kittyAnswers, override: "kitty", expected: .kitty),
        Case(env: ["TERM": "dumb"], answers: .none, expected: .ascii),
        Case(env: [:], answers: .none, expected: .ascii),
        Case(env: ["TERM": "xterm-256color", "NO_COLOR": "1"], answers: sixelAnswers, expected: .ascii),
        Case(env: ["TERM": "xterm-256color"], answers: kittyAnswers, override: "symbols", expected: .symbols),
        Case(env: ["TERM": "xterm-256color"], answers: .none, override: "sixel", expected: .sixel),
        Case(env: ["TERM": "xterm-kitty"], answers: kittyAnswers, isTTY: false, expected: .symbols),
    ]

    @Test(arguments: cases)
    func choosesTheMode(_ c: Case) {
        let caps = TerminalCapabilities(environment: c.env, answers: c.answers, isTTY: c.isTTY)
        let choice = caps.choose(override: c.override)
        #expect(choice.mode == c.expected, "\(choice.reason)")
        #expect(!choice.reason.isEmpty)
        #expect(caps.report(override: c.override).contains("graphics: \(c.expected.rawValue)"))
    }

    @Test func forcedPixelModeInTmuxIsWrapped() {
        let caps = TerminalCapabilities(environment: ["TERM": "tmux-256color", "TMUX": "/tmp/x,1,0"])
        #expect(caps.choose(override: "sixel").tmuxPassthrough)
        #expect(!caps.choose(override: "symbols").tmuxPassthrough)
    }

    @Test func colourDepthFollowsColortermAndTerm() {
        #expect(TerminalCapabilities(environment: ["TERM": "xterm", "COLORTERM": "truecolor"]).colorDepth == .truecolor)
        #expect(TerminalCapabilities(environment: ["TERM": "xterm-256color"]).colorDepth == .indexed256)
        #expect(TerminalCapabilities(environment: ["TERM": "xterm"]).colorDepth == .indexed16)
        #expect(TerminalCapabilities(environment: ["TERM": "xterm", "COLORTERM": "24bit", "NO_COLOR": "1"]).colorDepth == .none)
    }

    @Test func parsesAnswersInAnyOrder() {
        let bytes = Array("\u{1B}[6;20;10t\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[4;960;1600t\u{1B}[?62;4;22c\u{1B}[0n".utf8)
        let answers = TerminalAnswers.parse(bytes)
        #expect(answers.kittyGraphics)
        #expect(answers.sixel)
        #expect(answers.cellPixels == PixelSize(width: 10, height: 20))
        #expect(answers.windowPixels == PixelSize(width: 1600, height: 960))
        #expect(answers.complete)
        let caps = TerminalCapabilities(environment: ["TERM": "xterm"], answers: answers)
        #expect(caps.cellPixels == PixelSize(width: 10, height: 20))
    }

    @Test func kittyErrorIsNotSupport() {
        let answers = TerminalAnswers.parse(Array("\u{1B}_Gi=31;ENOTSUPPORTED:x\u{1B}\\\u{1B}[?62c\u{1B}[0n".utf8))
        #expect(!answers.kittyGraphics)
        #expect(!answers.sixel)
    }

    /// What kitty 0.26.5 and xterm 379 (`-ti vt340`) really answered to our queries, recorded
    /// under Xvfb: each picks its pixel mode, and kitty's cell size is read.
    @Test func recordedAnswersOfRealTerminals() {
        let kitty = TerminalAnswers.parse(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[4;396;639t\u{1B}[6;18;9t\u{1B}[?62;c\u{1B}[0n".utf8))
        #expect(kitty.complete && kitty.kittyGraphics)
        #expect(kitty.cellPixels == PixelSize(width: 9, height: 18))
        let kittyCaps = TerminalCapabilities(environment: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], answers: kitty)
        #expect(kittyCaps.choose().mode == .kitty)
        // xterm answers no window reports unless allowWindowOps is set: no cell size from it.
        let xterm = TerminalAnswers.parse(Array("\u{1B}[?63;1;2;4;6;9;15;16;22;28c\u{1B}[0n".utf8))
        #expect(xterm.complete && xterm.sixel && xterm.cellPixels == nil)
        #expect(TerminalCapabilities(environment: ["TERM": "xterm"], answers: xterm).choose().mode == .sixel)
    }

    /// tmux and screen take an APC string as the pane title: the kitty query stays out there.
    @Test func noKittyQueryInsideAMultiplexer() {
        let plain = TerminalProbe.queries(askKitty: true), muxed = TerminalProbe.queries(askKitty: false)
        #expect(String(decoding: plain, as: UTF8.self).contains("\u{1B}_G"))
        #expect(!String(decoding: muxed, as: UTF8.self).contains("\u{1B}_"))
        #expect(String(decoding: muxed, as: UTF8.self).hasSuffix("\u{1B}[c\u{1B}[5n"))
    }

    /// A pty whose other end never answers: the probe gives up within its budget.
    @Test func silentTerminalFallsBackWithinBudget() throws {
        let pty = try FakeTTY()
        let clock = ContinuousClock()
        let started = clock.now
        let answers = TerminalProbe(budget: .milliseconds(150)).probe(fd: pty.slave)
        let took = clock.now - started
        #expect(answers == .none || !answers.complete)
        #expect(took < .milliseconds(400), "probe took \(took)")
        // The queries did reach the terminal.
        #expect(pty.readAvailable() == TerminalProbe.queries(askKitty: true))
        let caps = TerminalCapabilities(environment: ["TERM": "xterm-256color"], answers: answers)
        #expect(caps.choose().mode == .symbols)
    }

    /// A pty that answers like a sixel terminal: the probe returns as soon as the DSR reply comes.
    @Test func answeringTerminalIsRead() throws {
        let pty = try FakeTTY()
        let master = pty.master
        let responder = Thread {
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, 1000)
            let answer = Array("\u{1B}[6;18;9t\u{1B}[?65;4;6c\u{1B}[0n".utf8)
            _ = answer.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
        responder.start()
        let clock = ContinuousClock()
        let started = clock.now
        let answers = TerminalProbe(budget: .seconds(2)).probe(fd: pty.slave)
        #expect(clock.now - started < .seconds(1))
        #expect(answers.complete)
        #expect(answers.sixel)
        #expect(answers.cellPixels == PixelSize(width: 9, height: 18))
    }
}

