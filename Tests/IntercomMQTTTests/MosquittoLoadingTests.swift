@testable import IntercomMQTT
import Testing

/// libmosquitto is loaded (dlopen) when the first MQTT client is made, not linked: a missing one
/// is one line naming the Debian package, and the installed one has every function the table needs.
@Suite struct MosquittoLoadingTests {
    @Test func aMissingLibmosquittoNamesThePackageToInstall() {
        guard case .failure(let error) = MosquittoLibrary.open("libmosquitto.so.999") else {
            Issue.record("libmosquitto.so.999 loaded")
            return
        }
        #expect(error.description.hasPrefix("MQTT needs libmosquitto.so.999, which could not be loaded (libmosquitto.so.999"), "\(error)")
        #expect(error.description.hasSuffix("install the Debian package libmosquitto1"), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test func theInstalledLibmosquittoHasEveryFunctionTheTableNames() throws {
        _ = try MosquittoLibrary.loaded.get()
    }
}
