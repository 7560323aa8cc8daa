import Foundation
import IntercomCLI
import IntercomPhoneTestSupport
import Testing
import IntercomTestSupport

/// The installed binaries: which one links libmicrohttpd, and that `intercom` reaches every command
/// of `CommandIndex` in the binary that runs it.
@Suite("binaries: who links what, who runs which command", .removesTestFolders)
struct BinaryLayoutTests {
    /// `NAME` beside the `intercom` under test.
    static func sibling(_ program: CommandProgram) throws -> String {
        ((try IntercomBinary.path()) as NSString).deletingLastPathComponent + "/" + program.rawValue
    }

    static func ldd(_ path: String, in dir: TestDirectory) async throws -> String {
        let result = try await Subprocess.run("/usr/bin/ldd", [path], logDirectory: dir.url)
        #expect(result.status == 0, "ldd \(path): \(result.stderr)")
        return result.stdout
    }

    @Test("intercom-full (the daemon) does not link libmicrohttpd, GStreamer, libavformat, libmosquitto or libpq; intercom-sim links the first two; intercom links the screens but not the phone, libcurl or the libraries loaded on use")
    func onlyTheSimulatorLinksMicroHTTPD() async throws {
        let dir = try TestDirectory(prefix: "binary-layout")
        let full = try await Self.ldd(try Self.sibling(.full), in: dir)
        #expect(full.contains("liblinphone"), "ldd intercom-full looks wrong:\n\(full)")
        #expect(!full.contains("microhttpd"), "intercom-full links libmicrohttpd:\n\(full)")
        #expect(!full.contains("libgstrtspserver"), "intercom-full links gst-rtsp-server:\n\(full)")
        // Loaded with dlopen by the parts that use them (IntercomVideo, IntercomMQTT), so an idle
        // daemon without a stream or `[mqtt]` never maps them or their dependencies.
        #expect(!full.contains("libavformat"), "intercom-full links libavformat:\n\(full)")
        #expect(!full.contains("libmosquitto"), "intercom-full links libmosquitto:\n\(full)")
        #expect(!full.contains("libpq"), "intercom-full links libpq (a site's PostgreSQL, loaded on use):\n\(full)")
        #expect(full.contains("libavcodec"), "ldd intercom-full looks wrong (liblinphone's libavcodec missing):\n\(full)")
        let launcher = try await Self.ldd(try IntercomBinary.path(), in: dir)
        #expect(!launcher.contains("microhttpd") && !launcher.contains("liblinphone") && !launcher.contains("libgst"),
                "\(launcher)")
        // The light binary runs the screen attached to the daemon (IntercomTUI: ncurses), and still none
        // of the phone's tree: an attached screen starts without liblinphone's ~200 libraries. SQLite,
        // libturbojpeg and libchafa (with glib) are loaded when first used: `export` and `open` never map them.
        #expect(launcher.contains("libncursesw"), "intercom should link the screens (ncursesw):\n\(launcher)")
        for loadedOnUse in ["libchafa", "libglib", "libsqlite3", "libturbojpeg"] {
            #expect(!launcher.contains(loadedOnUse), "intercom links \(loadedOnUse):\n\(launcher)")
        }
        for phoneLibrary in ["liblinphone", "libmediastreamer", "libbelle-sip", "libortp", "libavcodec"] {
            #expect(!launcher.contains(phoneLibrary), "intercom links \(phoneLibrary):\n\(launcher)")
        }
        // libcurl and its ~30 libraries are loaded with dlopen by the first HTTP request (IntercomHTTP's
        // CurlLibrary), so `log`, `ctl` and an attached screen start without them.
        #expect(!launcher.contains("libcurl"), "intercom links libcurl:\n\(launcher)")
        // The check above could pass for a wrong reason (no ldd output); the simulator shows it would see one.
        let simulator = try await Self.ldd(try Self.sibling(.simulator), in: dir)
        #expect(simulator.contains("libmicrohttpd"), "intercom-sim should link libmicrohttpd:\n\(simulator)")
        #expect(simulator.contains("libgstrtspserver"), "intercom-sim should link gst-rtsp-server:\n\(simulator)")
    }

    @Test("intercom log (local, or with a panel and no operator) never maps libcurl; open maps it for its request")
    func libcurlIsLoadedByTheFirstRequest() async throws {
        let dir = try TestDirectory(prefix: "binary-layout")
        // Port 9 on loopback: nothing listens, so `open` fails at once, after loading libcurl to try.
        let config = try IntercomBinary.writeConfig("[panel gate]\nurl = http://127.0.0.1:9\nuser = admin\npassword = admin\nmodel = dks\n",
                                                    in: dir).path
        var environment = try IntercomBinary.environment(in: dir)
        // The dynamic loader names every object it maps, at start or by dlopen, on stderr.
        environment["LD_DEBUG"] = "files"
        func run(_ arguments: [String]) async throws -> (status: Int32, mapsCurl: Bool, stderr: String) {
            let result = try await Subprocess.run(try IntercomBinary.path(), arguments, environment: environment,
                                                  logDirectory: dir.url)
            return (result.status, result.stderr.contains("file=libcurl"), result.stderr)
        }
        let local = try await run(["log", "--local", "--config", config])
        #expect(local.status == 0 && !local.mapsCurl, "intercom log --local: \(local.status)\n\(local.stderr.suffix(2000))")
        let log = try await run(["log", "--config", config])
        #expect(log.status == 0 && !log.mapsCurl, "intercom log: \(log.status)\n\(log.stderr.suffix(2000))")
        // The check above could pass for a wrong reason (a loader that prints nothing): open shows it would see one.
        let open = try await run(["open", "gate", "--config", config])
        #expect(open.status != 0 && open.mapsCurl, "intercom open: \(open.status)\n\(open.stderr.suffix(2000))")
        // Nor does a request map the libraries of the journal and of pictures: fewer objects for every
        // symbol libcurl's libraries look up, the point of loading them on use.
        for library in ["libsqlite3", "libchafa", "libturbojpeg"] {
            #expect(!open.stderr.contains("file=\(library)"), "intercom open maps \(library)")
        }
        // The version is the light binary's own answer: the phone's binary and its ~200 libraries never start.
        let version = try await run(["--version"])
        #expect(version.status == 0 && !version.stderr.contains("file=liblinphone"),
                "intercom --version: \(version.status)\n\(version.stderr.suffix(2000))")
    }

    @Test("intercom --help lists every command once, simulators and demo included")
    func helpListsEveryCommandOnce() async throws {
        let dir = try TestDirectory(prefix: "binary-layout")
        let result = try await IntercomBinary.run(["--help"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let listed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(listed == CommandIndex.all.map(\.name), "\(result.stdout)")
        #expect(Set(listed).count == listed.count)
        for name in ["demo", "simulate-panel", "simulate-operator", "log", "daemon"] {
            #expect(listed.contains(name), "\(name) missing from --help")
        }
    }

    @Test("every command's help comes from the binary CommandIndex names, reached through intercom")
    func everyCommandIsRunByItsBinary() async throws {
        let dir = try TestDirectory(prefix: "binary-layout")
        for entry in CommandIndex.all {
            let routed = try await IntercomBinary.run(["help", entry.name], in: dir)
            #expect(routed.status == 0 && routed.stdout.hasPrefix("usage: intercom \(entry.name)"),
                    "intercom help \(entry.name): \(routed.stdout)\(routed.stderr)")
            let direct = try await Subprocess.run(try Self.sibling(entry.program), [entry.name, "--help"],
                                                  environment: try IntercomBinary.environment(in: dir), logDirectory: dir.url)
            #expect(direct.status == 0 && direct.stdout.contains(entry.summary),
                    "\(entry.program.rawValue) \(entry.name) --help: \(direct.stdout)\(direct.stderr)")
        }
        // A simulator asked of intercom-full says where it lives instead of "unknown command".
        let wrong = try await Subprocess.run(try Self.sibling(.full), ["simulate-panel"],
                                             environment: try IntercomBinary.environment(in: dir), logDirectory: dir.url)
        #expect(wrong.status == 64 && wrong.stderr.contains("intercom-sim runs 'simulate-panel'"), "\(wrong.stderr)")
    }
}
