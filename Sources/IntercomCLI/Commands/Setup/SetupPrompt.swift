import Foundation
import IntercomBase

/// The wizard's questions: one line each on standard input; a password is read without echo on
/// a terminal. End of input answers every later question with its default.
struct SetupPrompt {
    func ask(_ question: String, default fallback: String = "") -> String {
        let shown = fallback.isEmpty ? "\(question): " : "\(question) [\(fallback)]: "
        _ = StandardStream.output.write(Array(TerminalSafe.lines(shown).utf8))
        guard let line = readLine(strippingNewline: true) else { return fallback }
        let answer = line.trimmingCharacters(in: .whitespaces)
        return answer.isEmpty ? fallback : answer
    }

    func askSecret(_ question: String) -> String {
        var saved = termios()
        let terminal = isatty(0) == 1 && tcgetattr(0, &saved) == 0
        if terminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &quiet)
        }
        _ = StandardStream.output.write(Array(TerminalSafe.lines("\(question): ").utf8))
        let line = readLine(strippingNewline: true) ?? ""
        if terminal {
            tcsetattr(0, TCSANOW, &saved)
            _ = StandardStream.output.write(Array("\n".utf8))
        }
        return line
    }

    func confirm(_ question: String) -> Bool {
        ["y", "yes"].contains(ask("\(question) (y/N)").lowercased())
    }
}
