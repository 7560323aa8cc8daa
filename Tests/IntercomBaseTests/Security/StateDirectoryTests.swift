import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomBase
import IntercomTestSupport

/// The state folder every writer makes or checks the same way (issue 22): 0700 from the first
/// byte, our own open folder tightened with a notice, anything else refused with its own fix.
@Suite("security: the state folder") struct StateDirectoryTests {
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test("a missing folder is made 0700, its missing parents too; a second ensure changes nothing and says nothing")
    func freshFolderIsPrivate() throws {
        let directory = try TestDirectory(prefix: "intercom-state")
        let path = directory.path + "/home/.local/state/intercom"
        var notices: [String] = []
        try StateDirectory.ensure(path) { notices.append($0) }
        #expect(Self.mode(path) == 0o700)
        #expect(Self.mode(directory.path + "/home/.local/state") == 0o700 && Self.mode(directory.path + "/home") == 0o700)
        try StateDirectory.ensure(path) { notices.append($0) }
        #expect(notices.isEmpty)
        #expect(try StateDirectory.inspect(path) == .ready)
    }

    @Test("our own 0755 folder (as an older 'intercom tui' made it) is tightened to 0700 with a notice; inspect only reports it")
    func openFolderIsTightened() throws {
        let directory = try TestDirectory(prefix: "intercom-state")
        let path = directory.path + "/intercom"
        #expect(mkdir(path, 0o755) == 0 && chmod(path, 0o755) == 0)
        #expect(try StateDirectory.inspect(path) == .tooOpen(0o755))
        #expect(Self.mode(path) == 0o755, "inspect (doctor) changes nothing")
        var notices: [String] = []
        try StateDirectory.ensure(path) { notices.append($0) }
        #expect(Self.mode(path) == 0o700)
        #expect(notices == ["\(path) had mode 755, open to other users; tightened it to 0700"])
    }

    @Test("a symlink, a file or another user's folder is refused, with a fix that names XDG_STATE_HOME, never XDG_RUNTIME_DIR")
    func foreignThingsAreRefused() throws {
        let directory = try TestDirectory(prefix: "intercom-state")
        let target = try directory.subdirectory("target").path
        chmod(target, 0o700)
        let link = directory.path + "/link"
        #expect(symlink(target, link) == 0)
        let file = try directory.write("x", to: "file").path
        let uid = getuid()
        let cases: [(String, UInt32, StateDirectoryError)] = [
            (link, uid, StateDirectoryError(link, .notADirectory)),
            (file, uid, StateDirectoryError(file, .notADirectory)),
            (target, uid &+ 4242, StateDirectoryError(target, .wrongOwner(owner: uid, uid: uid &+ 4242))),
        ]
        for (path, asUID, expected) in cases {
            #expect(throws: expected) { try StateDirectory.ensure(path, uid: asUID) { _ in Issue.record("no notice for \(path)") } }
            #expect(throws: expected) { try StateDirectory.inspect(path, uid: asUID) }
            #expect(expected.description.contains(path) && expected.description.contains("refusing"))
            #expect(expected.description.contains("XDG_STATE_HOME") && !expected.description.contains("XDG_RUNTIME_DIR"))
        }
        #expect(Self.mode(target) == 0o700, "a refused folder is left as it was")
    }

    @Test("the causes say what to do: a read-only folder names ReadWritePaths=, a denied one says to check its owner")
    func causesCarryTheirFix() {
        let path = "/home/u/.local/state/intercom"
        let readOnly = StateDirectoryError(path, .cannotWrite(EROFS)).description
        #expect(readOnly.contains(path) && readOnly.contains("Read-only file system") && readOnly.contains("ReadWritePaths="))
        let denied = StateDirectoryError(path, .cannotCreate(EACCES)).description
        #expect(denied.contains("Permission denied") && denied.contains("ls -ld \(path)"))
        let tight = StateDirectoryError(path, .cannotTighten(mode: 0o755, EPERM)).description
        #expect(tight.contains("mode 755") && tight.contains("chmod 700 \(path)"))
    }

    /// As a user a 0500 folder stops the writes (EACCES); root writes anywhere, so there the folder is
    /// made immutable (`chattr +i`, ext4 and most local file systems), which stops root too (EPERM).
    @Test("a folder we may not write in is refused by ensure and by inspect")
    func unwritableFolderIsRefused() async throws {
        let directory = try TestDirectory(prefix: "intercom-state")
        let path = directory.path + "/intercom"
        #expect(mkdir(path, 0o700) == 0)
        let refusal: Int32
        if getuid() == 0 {
            let chattr = try ExternalTool.path("chattr")
            let set = try await Subprocess.run(chattr, ["+i", path], logDirectory: directory.url)
            try #require(set.status == 0, "chattr +i \(path) failed (\(set.stderr)): this test needs a file system with immutable folders")
            refusal = EPERM
        } else {
            chmod(path, 0o500)
            refusal = EACCES
        }
        try await withCleanup({
            if getuid() == 0 { _ = try? await Subprocess.run(try ExternalTool.path("chattr"), ["-i", path], logDirectory: directory.url) }
            chmod(path, 0o700)
        }) {
            #expect(throws: StateDirectoryError(path, .cannotWrite(refusal))) { try StateDirectory.ensure(path) { _ in } }
            #expect(throws: StateDirectoryError(path, .cannotWrite(refusal))) { try StateDirectory.inspect(path) }
        }
    }
}
