import IntercomTestSupport
import Testing

/// Opens a `TestFolderScope` around each test (and each case of a parameterised one), so the phone,
/// journal and intercom folders `PhoneTestSupport.tempDirectory` makes are removed when the test ends.
/// Put it on every suite whose tests make phones: `@Suite(.removesTestFolders)`.
package struct RemovesTestFolders: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // One scope per test function or case, not one more around the whole suite.
        test.isSuite ? nil : self
    }

    package func provideScope(for test: Test, testCase: Test.Case?,
                              performing function: @Sendable () async throws -> Void) async throws {
        try await TestFolderScope.run { try await function() }
    }
}

extension Trait where Self == RemovesTestFolders {
    /// Removes the folders a test made through `PhoneTestSupport.tempDirectory` when it ends.
    package static var removesTestFolders: Self { RemovesTestFolders() }
}
