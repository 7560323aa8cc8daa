/// Tells key presses from what a terminal sends on its own: answers to our queries that came
/// after the probe gave up (a terminal slow to start, or one across a slow SSH link) and
/// other reports. Without it kitty's late `ESC _Gi=31;OK ESC \` reaches the keys as `O`
/// (open the second door), and DA1's digits (`ESC [?62;22c`) open doors in the kiosk.
///
/// Fed one byte (or ncurses key code) at a time; everything from ESC to the end of its
/// sequence — CSI, SS3, OSC/DCS/APC/PM/SOS strings, ESC + one character — is not a key.
/// Focus reports (`CSI I`, `CSI O`, after `CSI ? 1004 h`) are not keys either: they are kept
/// for `takeFocus`. Nor is a paste (`CSI 200 ~` … `CSI 201 ~`, after `CSI ? 2004 h`): its text
/// is kept for `takePaste`, however many reads it takes to come.
public struct EscapeFilter: Sendable {
    enum State: Sendable, Equatable { case ground, escape, csi, ss3, string, stringEscape, paste }

    /// A lone ESC key: nothing follows within this (a terminal sends its sequences in one write).
    package static let loneEscapeMilliseconds = 50
    static let loneEscape = Duration.milliseconds(loneEscapeMilliseconds)
    /// A sequence never ends (garbled, cut): keys count again after this. In a paste, this long
    /// without a byte (a long paste over a slow link comes in many reads, each within it).
    static let giveUp = Duration.seconds(1)
    /// At most this many bytes of a paste are read in one `finishSequence`: a paste that goes on
    /// and on is read across turns, and the screen keeps drawing meanwhile.
    package static let pasteBytesPerTurn = 65536

    private(set) var state = State.ground
    private var since: ContinuousClock.Instant?
    /// Parameter and intermediate bytes of the CSI being read (a focus report has none), and the
    /// first few of them (a paste's start mark is `200`).
    private var csiLength = 0
    private var csiStart: [UInt8] = []
    /// The paste being read, and the last one read whole (or given up on) not yet taken.
    private var paste = PasteCollector()
    private var pasted: BracketedPaste?
    /// The last focus report not yet taken: true = focus in.
    private var focus: Bool?

    public init() {}

    /// True when `code` is a key press; false when it is part of an escape sequence.
    /// ncurses' own key codes (arrows, KEY_RESIZE: 256 and up) are always keys.
    public mutating func isKey(_ code: Int32, now: ContinuousClock.Instant = ContinuousClock.now) -> Bool {
        guard (0..<256).contains(code) else { return true }
        if state != .ground, let since {
            let waited = since.duration(to: now)
            if waited > Self.giveUp || (state == .escape && waited > Self.loneEscape) { giveUpSequence() }
        }
        let byte = UInt8(code)
        switch state {
        case .ground:
            guard byte == 0x1B else { return true }
            begin(now)
        case .escape:
            switch byte {
            case UInt8(ascii: "["):
                state = .csi
                csiLength = 0
                csiStart = []
            case UInt8(ascii: "O"): state = .ss3
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"): state = .string
            case 0x1B: begin(now)
            default: state = .ground  // ESC + a character (Alt+key): not one of ours either
            }
        case .csi:
            if byte == 0x1B {
                begin(now)
            } else if (0x40...0x7E).contains(byte) {
                state = .ground
                if csiLength == 0, byte == UInt8(ascii: "I") || byte == UInt8(ascii: "O") { focus = byte == UInt8(ascii: "I") }
                if byte == UInt8(ascii: "~"), csiStart == Array("200".utf8), csiLength == 3 {
                    state = .paste
                    paste = PasteCollector()
                    since = now
                }
            } else {
                csiLength += 1
                if csiStart.count < 4 { csiStart.append(byte) }
            }
        case .ss3:
            state = .ground
        case .string:
            if byte == 0x07 { state = .ground } else if byte == 0x1B { state = .stringEscape }
        case .stringEscape:
            state = byte == UInt8(ascii: "\\") ? .ground : .string
        case .paste:
            // The wait for the end mark counts from the last byte, not the first.
            since = now
            if paste.take(byte) {
                state = .ground
                pasted = paste.paste(cut: false)
            }
        }
        return false
    }

    /// Reads the rest of the sequence a byte started (`isKey` said false) from `read`, which returns the
    /// next byte or key within the milliseconds it is given, or nil. Called at once, before the caller
    /// does anything slow: a terminal writes a sequence at once, and a lone ESC judged only on the next
    /// turn of a screen's loop (after drawing pictures on a loaded machine) split a focus report `ESC [ O`
    /// into `[` and `O` — the second door. After an ESC it waits up to `loneEscape` (and a little) for
    /// the next byte, as ncurses' ESCDELAY does; inside a longer sequence it takes only what is already
    /// there (the rest is read as it comes). Returns a key press read on the way, if one ended it.
    public mutating func finishSequence(_ read: (Int) -> Int32?) -> Int32? {
        var pasteBytes = 0
        while state != .ground {
            if state == .paste {
                pasteBytes += 1
                if pasteBytes > Self.pasteBytesPerTurn { return nil }
            }
            let wait = state == .escape ? Self.loneEscapeMilliseconds + 10 : 0
            guard let next = read(wait) else { return nil }
            if isKey(next) { return next }
        }
        return nil
    }

    /// The last paste read whole, once; or one whose end mark has not come for `giveUp` (what
    /// came of it: keys count again). Called each turn of the loop, key or not.
    public mutating func takePaste(now: ContinuousClock.Instant = ContinuousClock.now) -> BracketedPaste? {
        if state == .paste, let since, since.duration(to: now) > Self.giveUp { giveUpSequence() }
        defer { pasted = nil }
        return pasted
    }

    /// A sequence cut off for good; a paste cut off keeps what came.
    private mutating func giveUpSequence() {
        if state == .paste { pasted = paste.paste(cut: true) }
        state = .ground
    }

    /// True once when an ESC has stood alone for `loneEscape`: the Esc key itself (the kiosk's
    /// filter prompt clears on it). Called each turn of the loop, key or not.
    public mutating func takeLoneEscape(now: ContinuousClock.Instant = ContinuousClock.now) -> Bool {
        guard state == .escape, let since, since.duration(to: now) > Self.loneEscape else { return false }
        state = .ground
        return true
    }

    /// The newest focus report since the last call (true = the terminal has focus), once.
    public mutating func takeFocus() -> Bool? {
        defer { focus = nil }
        return focus
    }

    private mutating func begin(_ now: ContinuousClock.Instant) {
        state = .escape
        since = now
    }
}
