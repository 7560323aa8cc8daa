import Foundation
import IntercomPhoneTestSupport
import Testing
import IntercomTestSupport

/// `make install` builds what changed but never installs packages: that is `make deps`' job (issue 25).
@Suite("make install leaves packages alone", .removesTestFolders)
struct MakeInstallDepsTests {
    @Test("make -n install runs swift build and no apt; make -n deps does")
    func installRunsNoApt() async throws {
        let dir = try TestDirectory(prefix: "make-install")
        let root = InstalledProgram.repositoryRoot.path
        let install = try await InstalledProgram.run("make", ["--no-print-directory", "-n", "-C", root, "install", "PREFIX=\(dir.path)"],
                                                     in: dir, timeout: .seconds(30))
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout.contains("build -c release"), "\(install.stdout)")
        #expect(!install.stdout.contains("install-deps") && !install.stdout.contains("apt"), "\(install.stdout)")
        let deps = try await InstalledProgram.run("make", ["--no-print-directory", "-n", "-C", root, "deps"], in: dir,
                                                  timeout: .seconds(30))
        #expect(deps.stdout.contains("scripts/install-deps.sh"), "\(deps.stdout)")
    }
}
