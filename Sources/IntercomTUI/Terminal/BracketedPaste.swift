/// A paste, as the terminal marks it once asked (`CSI ? 2004 h`): `ESC [ 200 ~`, the text,
/// `ESC [ 201 ~`. Without the marks a paste is typed keys: "hello world, on my way" pasted during
/// a call opened the door three times (every `o`). With them it is text, which the screen hands
/// to an open prompt or sets aside (`EscapeFilter.takePaste`).
public struct BracketedPaste: Sendable, Equatable {
    /// What was pasted, as far as it was kept (invalid UTF-8 shows as U+FFFD).
    public var text: String
    /// Bytes pasted in all, kept or not.
    public var byteCount: Int
    /// The end mark never came (`EscapeFilter.giveUp` passed without a byte): what came is here.
    public var cut: Bool

    /// Asks the terminal to mark pastes; `off` puts it back (on exit, and before a stop).
    public static let on = "\u{1B}[?2004h"
    public static let off = "\u{1B}[?2004l"
    /// At most this much of a paste is kept (a prompt takes 200 characters); the rest is read and
    /// dropped, so a pasted file costs no more memory than a line.
    public static let keptBytes = 1024

    package init(text: String, byteCount: Int, cut: Bool) {
        self.text = text
        self.byteCount = byteCount
        self.cut = cut
    }
}

/// Reads a paste's bytes after its start mark, watching for the end mark `ESC [ 201 ~`; a part of
/// the mark that turns out to be text is text.
struct PasteCollector: Sendable {
    private static let endMark = Array("\u{1B}[201~".utf8)
    private var kept: [UInt8] = []
    private var count = 0
    /// How much of `endMark` the last bytes matched.
    private var matched = 0

    /// Takes one byte; true once it completed the end mark.
    mutating func take(_ byte: UInt8) -> Bool {
        if byte == Self.endMark[matched] {
            matched += 1
            if matched == Self.endMark.count { return true }
            return false
        }
        // Not the mark after all: what matched of it was text.
        for earlier in Self.endMark[0..<matched] { keep(earlier) }
        matched = 0
        if byte == Self.endMark[0] { matched = 1 } else { keep(byte) }
        return false
    }

    /// The paste so far; `cut`: the end mark never came (what matched of it counts as text).
    func paste(cut: Bool) -> BracketedPaste {
        var bytes = kept
        var total = count
        if cut {
            total += matched
            bytes += Self.endMark[0..<min(matched, max(0, BracketedPaste.keptBytes - bytes.count))]
        }
        return BracketedPaste(text: String(decoding: bytes, as: UTF8.self), byteCount: total, cut: cut)
    }

    private mutating func keep(_ byte: UInt8) {
        count += 1
        if kept.count < BracketedPaste.keptBytes { kept.append(byte) }
    }
}
