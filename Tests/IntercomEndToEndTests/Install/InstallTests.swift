import Foundation
import IntercomPhoneTestSupport
import Testing
import IntercomTestSupport

/// `make install` into a DESTDIR and `make deb`, with the build under test (BUILT): the files where
/// the FHS and each tool look, and the installed program runs.
@Suite("make install and the Debian package", .serialized, .removesTestFolders)
struct InstallTests {
    static let installedFiles = [
        "usr/bin/intercom", "usr/bin/intercom-full", "usr/bin/intercom-sim",
        "usr/share/man/man1/intercom.1", "usr/share/man/man5/intercom-config.5",
        "usr/lib/systemd/user/intercom.service",
        "usr/share/bash-completion/completions/intercom", "usr/share/zsh/site-functions/_intercom",
        "usr/share/fish/vendor_completions.d/intercom.fish",
    ]

    static func make(_ arguments: [String], in dir: TestDirectory, timeout: Duration = .seconds(120))
        async throws -> (status: Int32, stdout: String, stderr: String) {
        try await InstalledProgram.run("make", ["--no-print-directory", "-C", InstalledProgram.repositoryRoot.path]
            + arguments + ["BUILT=\(try InstalledProgram.built())"], in: dir, timeout: timeout)
    }

    @Test("make install-files DESTDIR=… PREFIX=/usr puts each file in its place, runs, and uninstall removes it all")
    func destdirInstall() async throws {
        let dir = try TestDirectory(prefix: "install")
        let root = try dir.subdirectory("root").path
        let installed = try await Self.make(["install-files", "DESTDIR=\(root)", "PREFIX=/usr", "USERUNITDIR=/usr/lib/systemd/user"], in: dir)
        #expect(installed.status == 0, "\(installed.stderr)")
        let fm = FileManager.default
        for file in Self.installedFiles { #expect(fm.fileExists(atPath: "\(root)/\(file)"), "\(file) not installed") }
        let ringtones = (try? fm.contentsOfDirectory(atPath: "\(root)/usr/share/intercom/ringtones")) ?? []
        #expect(ringtones.contains { $0.hasSuffix(".wav") }, "no ringtone installed")
        for binary in ["intercom", "intercom-full", "intercom-sim"] {
            #expect(fm.isExecutableFile(atPath: "\(root)/usr/bin/\(binary)"))
        }
        let unit = try String(contentsOfFile: "\(root)/usr/lib/systemd/user/intercom.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/intercom daemon\n"), "the unit's ExecStart: \(unit)")
        #expect(unit.contains("ExecStartPre=+/bin/mkdir"), "the sed touched other lines")

        // The installed launcher finds its siblings and its ringtones from where it lies.
        let version = try await InstalledProgram.run("\(root)/usr/bin/intercom", ["--version"], in: dir)
        #expect(version.status == 0 && version.stdout.hasPrefix("intercom "), "\(version)")
        let demo = try await InstalledProgram.run("\(root)/usr/bin/intercom", ["demo", "--help"], in: dir)
        #expect(demo.status == 0 && demo.stdout.hasPrefix("usage: intercom demo"), "\(demo)")
        let sim = try await InstalledProgram.run("\(root)/usr/bin/intercom", ["simulate-panel", "--help"], in: dir)
        #expect(sim.status == 0, "\(sim)")
        let page = try await InstalledProgram.man("\(root)/usr/share/man/man1/intercom.1", in: dir)
        #expect(page.contains("intercom demo [options]"))

        let removed = try await Self.make(["uninstall", "DESTDIR=\(root)", "PREFIX=/usr", "USERUNITDIR=/usr/lib/systemd/user"], in: dir)
        #expect(removed.status == 0, "\(removed.stderr)")
        let left = fm.enumerator(atPath: root)?.compactMap { $0 as? String }
            .filter { !((try? fm.attributesOfItem(atPath: "\(root)/\($0)")[.type] as? FileAttributeType) == .typeDirectory) } ?? []
        #expect(left.isEmpty, "uninstall left \(left)")
    }

    @Test("make deb: lintian finds no error; unpacked in a scratch root it runs, with dependencies and the unit in place",
          .timeLimit(.minutes(15)))
    func debianPackage() async throws {
        let dir = try TestDirectory(prefix: "deb")
        let out = try dir.subdirectory("out").path
        let built = try await InstalledProgram.run(InstalledProgram.repositoryRoot.appendingPathComponent("scripts/make-deb.sh").path, [],
                                                   in: dir, environment: ["BUILT": try InstalledProgram.built(), "OUT": out, "LEVEL": "1"],
                                                   timeout: .seconds(900))
        #expect(built.status == 0, "make-deb failed:\n\(built.stderr)")
        let deb = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasSuffix(".deb") && FileManager.default.fileExists(atPath: deb), "\(built.stdout)")
        guard FileManager.default.fileExists(atPath: deb) else { return }
        #expect(!built.stderr.contains("\nE: ") && !built.stderr.hasPrefix("E: "), "lintian errors:\n\(built.stderr)")

        let fields = try await InstalledProgram.run("dpkg-deb", ["--field", deb, "Depends"], in: dir)
        for library in ["liblinphone", "libcurl4", "libsqlite3-0", "libturbojpeg0", "libchafa0", "libc6"] {
            #expect(fields.stdout.contains(library), "Depends lacks \(library): \(fields.stdout)")
        }
        let listing = try await InstalledProgram.run("dpkg-deb", ["--contents", deb], in: dir)
        for file in ["./usr/bin/intercom", "./usr/lib/systemd/user/intercom.service", "./usr/share/man/man1/intercom.1.gz",
                     "./usr/share/man/man5/intercom-config.5.gz", "./usr/share/zsh/vendor-completions/_intercom",
                     "./usr/share/doc/intercom/copyright", "./usr/lib/intercom/libswiftCore.so"] {
            #expect(listing.stdout.contains(file), "\(file) missing from the package")
        }

        let root = try dir.subdirectory("root").path
        let unpacked = try await InstalledProgram.run("dpkg", ["-x", deb, root], in: dir)
        #expect(unpacked.status == 0, "\(unpacked.stderr)")
        // Unpacked elsewhere than /, the private runtime is found through the library path.
        let env: [String: String?] = ["LD_LIBRARY_PATH": "\(root)/usr/lib/intercom"]
        let version = try await InstalledProgram.run("\(root)/usr/bin/intercom", ["--version"], in: dir, environment: env)
        #expect(version.status == 0 && version.stdout.hasPrefix("intercom "), "\(version)")
        let demo = try await InstalledProgram.run("\(root)/usr/bin/intercom", ["demo", "--help"], in: dir, environment: env)
        #expect(demo.status == 0 && demo.stdout.hasPrefix("usage: intercom demo"), "\(demo)")
        let runpath = try await InstalledProgram.run("readelf", ["-d", "\(root)/usr/bin/intercom-full"], in: dir)
        #expect(runpath.stdout.contains("[/usr/lib/intercom]"), "RUNPATH: \(runpath.stdout)")
    }
}
