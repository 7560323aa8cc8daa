@testable import IntercomBase
@testable import IntercomImaging
import IntercomTUI
import Testing

/// SQLite, libturbojpeg and libchafa are loaded (dlopen) when first used, not linked: a missing one
/// is one line naming the Debian package, and the installed ones have every function the tables name.
@Suite struct LibraryLoadingTests {
    @Test func aMissingLibraryNamesThePackageToInstall() {
        guard case .failure(let sqlite) = SQLiteLibrary.open("libsqlite3.so.999"),
              case .failure(let jpeg) = TurboJPEGLibrary.open("libturbojpeg.so.999") else {
            Issue.record("a library that is not there loaded")
            return
        }
        #expect(sqlite.description.hasPrefix("The journal needs libsqlite3.so.999, which could not be loaded (libsqlite3.so.999"),
                "\(sqlite)")
        #expect(sqlite.description.hasSuffix("install the Debian package libsqlite3-0"), "\(sqlite)")
        #expect(jpeg.description.hasSuffix("install the Debian package libturbojpeg0"), "\(jpeg)")
        #expect(!sqlite.description.contains("\n") && !jpeg.description.contains("\n"))
        // As a journal's error it stays that one line, behind what was being opened.
        #expect(JournalError.database("open j.db", sqlite.description).description.hasSuffix(sqlite.description))
    }

    @Test func theInstalledLibrariesHaveEveryFunctionTheTablesName() throws {
        _ = try SQLiteLibrary.loaded.get()
        _ = try TurboJPEGLibrary.loaded.get()
        #expect(PictureLibraries.problems.isEmpty, "\(PictureLibraries.problems)")
    }
}
