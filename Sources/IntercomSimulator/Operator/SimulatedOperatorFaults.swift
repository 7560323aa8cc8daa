import Foundation

/// Faults of the operator's answers, for testing a client's limits.
public struct SimulatedOperatorFaults: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// A 200 whose body is 50 MB of JSON-looking filler, chunked (no Content-Length).
        case huge
        /// A 200 whose body is an HTML page, not JSON (a captive portal or a broken proxy).
        case garbage
        /// The ordinary answer, after `slowMs`.
        case slow
    }

    public var mode: Mode?
    /// The API methods ("user/requestCode", "address/openDoor", …) that meet the fault; empty = all of them.
    public var methods: Set<String>
    public var slowMs: Int
    public var hugeBytes: UInt64

    public init(mode: Mode? = nil, methods: Set<String> = [], slowMs: Int = 30_000, hugeBytes: UInt64 = 50 << 20) {
        self.mode = mode
        self.methods = methods
        self.slowMs = slowMs
        self.hugeBytes = hugeBytes
    }

    /// The fault `method` meets, if any.
    func mode(for method: String) -> Mode? {
        guard let mode, methods.isEmpty || methods.contains(method) else { return nil }
        return mode
    }
}
