@testable import IntercomHTTP
import Testing

/// libcurl is loaded (dlopen) by the process's first HTTP event loop, not linked: a missing one is
/// one line naming the Debian package, and the installed one has every function the table needs.
@Suite struct CurlLoadingTests {
    @Test func aMissingLibcurlNamesThePackageToInstall() {
        guard case .failure(let error) = CurlLibrary.open("libcurl.so.999") else {
            Issue.record("libcurl.so.999 loaded")
            return
        }
        #expect(error.description.hasPrefix("HTTP needs libcurl.so.999, which could not be loaded (libcurl.so.999"), "\(error)")
        #expect(error.description.hasSuffix("install the Debian package libcurl4"), "\(error)")
        #expect(!error.description.contains("\n"))
        // As a client's error it stays that one line.
        #expect(HTTPError.unavailable(error).description == error.description)
    }

    @Test func theInstalledLibcurlHasEveryFunctionTheTableNames() throws {
        _ = try CurlLibrary.loaded.get()
    }
}
