/// A command's failure as it is printed: one line and the exit code.
public struct CommandError: Error, Sendable {
    public var message: String
    public var code: Int32

    public init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    /// Prints the line and returns the code (`Console.fail`).
    public func report() -> Int32 { Console.fail(message, code: code) }
}
