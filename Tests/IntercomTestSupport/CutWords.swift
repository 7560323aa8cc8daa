import Foundation

/// Finds text a screen cut mid-word: the same state drawn on a very wide window is the
/// reference (nothing needs cutting there), and every piece of text on the smaller screen must
/// appear whole in it — bounded by spaces or a line's ends on both sides — unless it ends in "…"
/// (shortened on purpose), and then what precedes the "…" must start at a word's start.
/// `door main of porch o` fails: in the reference it is followed by `pened`.
///
/// Pieces are the runs of text between two or more spaces (columns, key bar items) or after an
/// "…"; pictures' block characters count as spaces, and digits as 0 (clocks tick between captures).
package enum CutWords {
    /// The pieces of `screen` that are not whole in `reference`; empty when nothing is cut.
    package static func check(_ screen: String, reference: String) -> [String] {
        let lines = normalize(reference).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return pieces(of: normalize(screen)).filter { !found($0, in: lines) }
    }

    /// Block elements (U+2580–U+259F) as spaces, digits as 0.
    package static func normalize(_ text: String) -> String {
        String(text.unicodeScalars.map { scalar -> Character in
            if (0x2580...0x259F).contains(scalar.value) { return " " }
            if CharacterSet.decimalDigits.contains(scalar), scalar.isASCII { return "0" }
            return Character(scalar)
        })
    }

    /// Runs of text with a letter in them, split at two or more spaces and after each "…".
    static func pieces(of screen: String) -> [String] {
        var result: [String] = []
        for line in screen.split(separator: "\n") {
            var piece = ""
            var spaces = 0
            func flush() {
                let trimmed = piece.trimmingCharacters(in: .whitespaces)
                if trimmed.unicodeScalars.contains(where: CharacterSet.letters.contains) { result.append(trimmed) }
                piece = ""
            }
            for c in line {
                if c == " " {
                    spaces += 1
                    if spaces == 2 { flush() }
                    piece.append(c)
                    continue
                }
                spaces = 0
                piece.append(c)
                if c == "…" { flush() }
            }
            flush()
        }
        return result
    }

    static func found(_ piece: String, in lines: [String]) -> Bool {
        let shortened = piece.hasSuffix("…")
        let needle = shortened ? String(piece.dropLast()).trimmingCharacters(in: .whitespaces) : piece
        if needle.isEmpty { return true }
        for line in lines {
            var from = line.startIndex
            while let range = line.range(of: needle, range: from..<line.endIndex) {
                let before = range.lowerBound == line.startIndex ? " " : line[line.index(before: range.lowerBound)]
                let after = range.upperBound == line.endIndex ? " " : line[range.upperBound]
                let startsWord = !isWordCharacter(before) || !isWordCharacter(needle.first ?? " ")
                if startsWord && (shortened || after == " " || after == "…") { return true }
                from = line.index(after: range.lowerBound)
            }
        }
        return false
    }

    private static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber }
}

extension Tmux {
    /// Resizes the window and waits until the program has drawn for the new size: no line wider
    /// than it, the last line `lastLine` (the key bar's end), and the screen unchanged for 300 ms
    /// (the TUI redraws within a turn of its loop after SIGWINCH; clocks ticking do not count).
    @discardableResult
    package func resizeAndSettle(width: Int, height: Int, lastLine: String = "? help",
                                 timeout: Duration = TestPatience.condition) async throws -> String {
        try await resize(width: width, height: height)
        let clock = ContinuousClock()
        var last = "", stableSince = clock.now
        let settled = try await TestPatience.eventually(within: timeout, every: .milliseconds(50)) {
            let screen = try await capture()
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            let bottom = lines.prefix(height).last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            let trimmed = bottom.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
            let fits = lines.allSatisfy { $0.count <= width } && trimmed.hasSuffix(lastLine)
            let now = clock.now
            if CutWords.normalize(screen) != CutWords.normalize(last) { stableSince = now }
            last = screen
            return fits && stableSince.duration(to: now) >= .milliseconds(300)
        }
        guard settled else { throw HarnessError.timeout("the screen redrawn at \(width)×\(height)", after: timeout, log: last) }
        return last
    }

    /// Checks the screen as it is now for cut words at each size: the reference is drawn at
    /// `reference` size before the first and after the last. Returns one line per problem (empty: none).
    package func cutWords(screen name: String, sizes: [(Int, Int)], reference: (Int, Int) = (240, 70),
                          lastLine: String = "? help") async throws -> [String] {
        var problems: [String] = []
        // The reference is drawn before the first size and after the last, and every size is checked
        // against both (5 resizes for 3 sizes, each settling for at least 300 ms, not 7 with a reference
        // between each two sizes): the tests hold the screen's state while it is checked, and a ticking
        // clock does not count (digits are 0).
        let before = try await resizeAndSettle(width: reference.0, height: reference.1, lastLine: lastLine)
        var drawn: [(size: (Int, Int), screen: String)] = []
        for (w, h) in sizes {
            drawn.append(((w, h), try await resizeAndSettle(width: w, height: h, lastLine: lastLine)))
        }
        let after = try await resizeAndSettle(width: reference.0, height: reference.1, lastLine: lastLine)
        for (size, small) in drawn {
            let cut = CutWords.check(small, reference: before + "\n" + after)
            if !cut.isEmpty { problems.append("\(name) at \(size.0)×\(size.1) cuts \(cut):\n\(small)") }
        }
        return problems
    }
}
