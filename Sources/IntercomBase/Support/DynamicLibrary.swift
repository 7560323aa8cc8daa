/// A C library reached through a table of its functions, which its C loader (CDynamicLoad's steps:
/// dlopen, then dlsym for each field) fills the first time the process needs it. The loaded library
/// is never closed, so the table stays valid for the life of the process.
///
/// Why by dlopen: every library mapped at start is one more object the dynamic loader searches for
/// each symbol of every library loaded later (libcurl's ~30), and one more to map and relocate
/// before `main`. The light binary's commands load only the libraries they use (DECISIONS.md).
public enum DynamicLibrary {
    /// Calls `open` (a C loader: 0 on success, else -1 and the reason in its buffer) and keeps the
    /// table it filled on the heap, or gives the loader's reason.
    public static func table<Table>(
        _ open: (UnsafeMutablePointer<Table>, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) -> Result<UnsafePointer<Table>, DynamicLibraryError.Reason> {
        let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        var error = [CChar](repeating: 0, count: 512)
        let code = error.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { open(table, $0, buffer.count) } ?? -1
        }
        guard code == 0 else {
            table.deallocate()
            return .failure(DynamicLibraryError.Reason(
                text: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(UnsafePointer(table))
    }
}

/// A library could not be loaded: what needed it, the library, why, and the Debian package that brings it.
public struct DynamicLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// dlopen's or dlsym's words.
    public struct Reason: Error, Sendable, Equatable {
        public let text: String
    }

    /// What the library is for: "the journal", "pictures in the terminal".
    public let purpose: String
    public let library: String
    public let package: String
    public let reason: String

    public init(purpose: String, library: String, package: String, reason: Reason) {
        self.purpose = purpose
        self.library = library
        self.package = package
        self.reason = reason.text
    }

    public var description: String {
        "\(purpose) needs \(library), which could not be loaded (\(reason)): install the Debian package \(package)"
    }
}
