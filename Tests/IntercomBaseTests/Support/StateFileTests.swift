import Foundation
import IntercomBase
import IntercomTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SECURITY: a state file is read only when it is what intercom writes (a plain file of ours that
/// nobody else may write); anything else is refused with the reason and the way out, never read.
@Suite struct StateFileTests {
    @Test func aMissingFileIsNoneAndOurOwnIsRead() throws {
        let directory = try TestDirectory(prefix: "intercom-state-file")
        #expect(try StateFile.read(directory.path + "/absent.json") == nil)
        let ours = try directory.write("{}", to: "ours.json")
        #expect(chmod(ours.path, 0o600) == 0)
        #expect(try StateFile.read(ours.path) == Data("{}".utf8))
    }

    @Test func aLinkAFolderOrAFIFOIsNotAPlainFile() throws {
        let directory = try TestDirectory(prefix: "intercom-state-file")
        let target = try directory.write("{}", to: "target.json")
        #expect(symlink(target.path, directory.path + "/link.json") == 0)
        #expect(throws: StateFileError(directory.path + "/link.json", .notAPlainFile)) { try StateFile.read(directory.path + "/link.json") }
        let folder = try directory.subdirectory("folder.json").path
        #expect(throws: StateFileError(folder, .notAPlainFile)) { try StateFile.read(folder) }
        // A FIFO would block a plain open for ever: refused at once.
        #expect(mkfifo(directory.path + "/fifo.json", 0o600) == 0)
        #expect(throws: StateFileError(directory.path + "/fifo.json", .notAPlainFile)) { try StateFile.read(directory.path + "/fifo.json") }
    }

    @Test func anotherUsersFileIsRefusedNamingItsOwner() throws {
        let directory = try TestDirectory(prefix: "intercom-state-file")
        let file = try directory.write("{}", to: "theirs.json")
        #expect(chmod(file.path, 0o600) == 0)
        // As root the file is given away; as anyone else it is judged for a uid that is not ours.
        let me = getuid()
        let stranger: UInt32 = 54_321
        if me == 0 { #expect(chown(file.path, stranger, gid_t(stranger)) == 0) }
        let uid = me == 0 ? 0 : me + 1
        let owner = me == 0 ? stranger : me
        do {
            _ = try StateFile.read(file.path, uid: uid)
            Issue.record("another user's file was read")
        } catch {
            #expect(error == StateFileError(file.path, .foreignOwner(owner: owner, uid: uid)))
            #expect(error.description.contains("belongs to uid \(owner)") && error.description.contains("remove it"), "\(error)")
        }
    }

    @Test func aFileOthersMayWriteIsRefused() throws {
        let directory = try TestDirectory(prefix: "intercom-state-file")
        let file = try directory.write("{}", to: "open.json")
        for mode: mode_t in [0o620, 0o602] {
            #expect(chmod(file.path, mode) == 0)
            #expect(throws: StateFileError(file.path, .writableByOthers(mode: mode))) { try StateFile.read(file.path) }
        }
        // Readable by others is a privacy matter the writer settles (0600); it is not planted.
        #expect(chmod(file.path, 0o644) == 0)
        #expect(try StateFile.read(file.path) == Data("{}".utf8))
        #expect(StateFileError(file.path, .writableByOthers(mode: 0o620)).description.contains("chmod 600 \(file.path)"))
    }
}
