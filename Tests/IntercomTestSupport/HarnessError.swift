import Foundation

/// Why a real-peer test harness step failed. Thrown errors fail the test with this text.
package struct HarnessError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }

    /// A tool from `scripts/install-deps.sh` is not installed: tests must fail, never skip.
    package static func toolMissing(_ name: String) -> HarnessError {
        HarnessError(
            "required test tool `\(name)` is not installed; run `make test` "
                + "(scripts/install-deps.sh installs every peer the tests use)")
    }

    /// Something did not happen before its deadline; `log` is appended (tail only) for diagnosis.
    package static func timeout(_ what: String, after: Duration, log: String = "") -> HarnessError {
        HarnessError("timed out after \(after) waiting for \(what)" + HarnessError.tail(log))
    }

    /// The last few lines of a log, for error messages.
    package static func tail(_ log: String, lines: Int = 40) -> String {
        guard !log.isEmpty else { return "" }
        let last = log.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
        return "\n--- log tail ---\n" + last.joined(separator: "\n")
    }
}
