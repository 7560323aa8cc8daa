import IntercomTUI

/// Whatever the terminal wrote back to the capability probe (or a program that is not a
/// terminal at all).
enum TerminalAnswersFuzz {
    static func run(_ input: [UInt8]) {
        let answers = TerminalAnswers.parse(input)
        if let window = answers.windowPixels { precondition(window.width > 0 && window.height > 0) }
        if let cell = answers.cellPixels { precondition(cell.width > 0 && cell.height > 0) }
        _ = answers.sixel
    }
}
