/// A C library reached through a table of its functions, which its C loader (CDynamicLoad's
/// `INTERCOM_DEFINE_LOADER`: dlopen, then dlsym for each function its list names) fills the first time
/// the process needs it. The library is never closed, so the table stays valid for the life of the process.
///
/// Why by dlopen: every library mapped at start is one more object the dynamic loader searches for
/// each symbol of every library loaded later (libcurl's ~30), and one more to map and relocate
/// before `main`. The light binary's commands load only the libraries they use (DECISIONS.md).
public enum DynamicLibrary {
    /// Which library, what needs it and the Debian package that brings it: what a failure says.
    public struct Name: Sendable, Equatable {
        public let soname: String
        /// What the library is for: "the journal", "pictures (JPEG)".
        public let purpose: String
        public let package: String

        public init(soname: String, purpose: String, package: String) {
            self.soname = soname
            self.purpose = purpose
            self.package = package
        }
    }

    /// A loaded library's table of C function pointers, on the heap for the life of the process and
    /// immutable once filled.
    public struct Table<Functions>: @unchecked Sendable {
        public let pointer: UnsafePointer<Functions>
        /// The functions Swift calls.
        public var c: Functions { pointer.pointee }
    }

    /// Calls the C loader `open` (0 on success, else -1 and dlopen's or dlsym's reason in its buffer)
    /// for `name` and keeps the table it filled, or says why it could not.
    public static func load<Functions>(
        _ name: Name,
        _ open: (UnsafePointer<CChar>, UnsafeMutablePointer<Functions>, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) -> Result<Table<Functions>, DynamicLibraryError> {
        let table = UnsafeMutablePointer<Functions>.allocate(capacity: 1)
        var error = [CChar](repeating: 0, count: 512)
        let code = name.soname.withCString { soname in
            error.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress.map { open(soname, table, $0, buffer.count) } ?? -1
            }
        }
        guard code == 0 else {
            table.deallocate()
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(DynamicLibraryError(library: name, reason: reason))
        }
        return .success(Table(pointer: UnsafePointer(table)))
    }
}

/// A library could not be loaded: what needed it, the library, why, and the Debian package that brings it.
public struct DynamicLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    public let library: DynamicLibrary.Name
    /// dlopen's or dlsym's words, or the library's own (a failed initialisation).
    public let reason: String

    public init(library: DynamicLibrary.Name, reason: String) {
        self.library = library
        self.reason = reason
    }

    public var description: String {
        "\(library.purpose) needs \(library.soname), which could not be loaded (\(reason)): install the Debian package \(library.package)"
    }
}

extension Result where Failure == DynamicLibraryError {
    /// The one line naming what is missing and its package, or nil when the library loaded.
    public var loadProblem: String? {
        if case .failure(let error) = self { return error.description }
        return nil
    }
}
