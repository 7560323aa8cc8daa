@testable import IntercomVideo
import Testing

/// libavformat is loaded (dlopen) when the first stream or clip opens, not linked: a missing one
/// is one line naming the Debian package, and the real one has every function the table needs.
@Suite struct FFmpegLoadingTests {
    @Test func aMissingLibavformatNamesThePackageToInstall() {
        guard case .failure(let error) = FFmpegLibrary.open("libavformat.so.999") else {
            Issue.record("libavformat.so.999 loaded")
            return
        }
        #expect(error.description.hasPrefix("Live video needs libavformat.so.999, which could not be loaded (libavformat.so.999"),
                "\(error)")
        #expect(error.description.hasSuffix("install the Debian package libavformat999"), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    /// Throws (the missing package named) when this machine lacks the library the headers name.
    @Test func theInstalledLibavformatHasEveryFunctionTheTableNames() throws {
        _ = try FFmpegLibrary.format(for: "rtsp://127.0.0.1/av0_0")
    }
}
