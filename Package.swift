// swift-tools-version:6.0
import PackageDescription

/// Lets CSIPIngress's read hooks take the place of libbctoolbox's functions for belle-sip: every
/// executable that runs a phone exports them (the hooks screen SIP reads, learn where each call
/// came from, and learn from belle-sip's sends which dialogs each address has with us).
let sipReadHook: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=bctbx_recvfrom",
                                                  "-Xlinker", "--export-dynamic-symbol=bctbx_recv",
                                                  "-Xlinker", "--export-dynamic-symbol=bctbx_ssl_read",
                                                  "-Xlinker", "--export-dynamic-symbol=bctbx_sendto",
                                                  "-Xlinker", "--export-dynamic-symbol=bctbx_send"])]

/// GStreamer's header folders for CGstRTSPServer, handed to the compiler of every target that depends on
/// IntercomSimulator (the clang importer builds CGstRTSPServer's module wherever IntercomSimulator's
/// interface is loaded; `@testable import` needs it). Not `pkgConfig:`: gstreamer-1.0.pc's Requires pull in
/// gmodule's `-pthread`, a flag SwiftPM prohibits and warned about on every build. These are Debian 12's
/// fixed paths (libglib2.0-dev, libgstreamer1.0-dev and libgstrtspserver-1.0-dev); only glibconfig.h's
/// folder is per architecture, named by the multiarch triplet.
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let glibFolders = ["/usr/include/glib-2.0", "/usr/lib/\(multiarch)/glib-2.0/include"]
let gstreamerHeaders: [SwiftSetting] = {
    let folders = ["/usr/include/gstreamer-1.0"] + glibFolders
    return [.unsafeFlags(folders.flatMap { folder in ["-Xcc", "-I\(folder)"] })]
}()

/// chafa.h's folders (libchafa-dev; it includes glib.h), for CChafa and its one importer, IntercomTerminal.
/// Not `pkgConfig:`: that would link libchafa, which CChafa loads with dlopen instead.
let chafaFolders = ["/usr/include/chafa", "/usr/lib/\(multiarch)/chafa/include"] + glibFolders

// The light `intercom` links the Swift runtime and Foundation statically: its start was mostly the dynamic
// loader binding their symbols (DECISIONS.md "The light binary links Swift statically"). The targets it shares
// with intercom-full are compiled against the shared runtime's modules, whose link entries name only the
// shared libraries, so the static archives are named here, in a group (their order does not matter). Linked
// with lld: GNU ld warns on every build that Foundation's archive uses glibc's mktemp.
let lightStaticRuntime: [LinkerSetting] = [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--start-group", "-Xlinker", "-lFoundation", "-Xlinker", "-lFoundationNetworking", "-Xlinker", "-lFoundationInternationalization", "-Xlinker", "-lFoundationEssentials", "-Xlinker", "-lCoreFoundation", "-Xlinker", "-l_CFURLSessionInterface", "-Xlinker", "-l_FoundationICU", "-Xlinker", "-l_FoundationCShims", "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-lswiftSynchronization", "-Xlinker", "-lswiftDispatch", "-Xlinker", "-ldispatch", "-Xlinker", "-lBlocksRuntime", "-Xlinker", "-lswift_Concurrency", "-Xlinker", "-lswift_StringProcessing", "-Xlinker", "-lswift_RegexParser", "-Xlinker", "-lswiftGlibc", "-Xlinker", "-lswiftCore", "-Xlinker", "-lstdc++", "-Xlinker", "-lm", "-Xlinker", "--end-group"])]

let package = Package(
    name: "intercom",
    products: [
        .executable(name: "intercom", targets: ["intercom"]),
        .executable(name: "intercom-full", targets: ["intercom-full"]),
        .executable(name: "intercom-sim", targets: ["intercom-sim"]),
        .library(name: "IntercomCore", targets: ["IntercomCore"]),
    ],
    targets: [
        // One module per C library. Debian's linphone.pc is broken (empty Libs:), so CLinphone links by name.
        .systemLibrary(name: "CLinphone", path: "Sources/CLinphone"),
        // The mediastreamer2 display filter that hands decoded call video to Swift.
        .target(
            name: "CFrameSink",
            path: "Sources/CFrameSink",
            linkerSettings: [.linkedLibrary("mediastreamer"), .linkedLibrary("ortp"), .linkedLibrary("bctoolbox")]
        ),
        // Read hooks in front of belle-sip (intercom-full, which runs the phone, exports them).
        .target(name: "CSIPIngress", path: "Sources/CSIPIngress", linkerSettings: [.linkedLibrary("dl")]),
        // The steps the three dlopen loaders below share (open the library, look each symbol up, name the one
        // missing): one header, no code of its own; CCurl, CMosquitto and CFFmpeg each keep their own library.
        .target(name: "CDynamicLoad", path: "Sources/CDynamicLoad"),
        // curl.h and the table libcurl is reached through, loaded with dlopen by the process's first HTTP
        // event loop (libcurl4 at run time; headers: libcurl4-openssl-dev), so the light binary's `log`,
        // `ctl` and attached screen start without libcurl's ~30 libraries and `ldd intercom` lists none.
        .target(name: "CCurl", dependencies: ["CDynamicLoad"], path: "Sources/CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // curl_easy_setopt is variadic, which Swift cannot call: typed wrappers, calling through CCurl's table.
        .target(name: "CCurlShim", dependencies: ["CCurl"], path: "Sources/CCurlShim"),
        // Loaded with dlopen when the first JPEG is read or written (libturbojpeg0 at run time; headers:
        // libturbojpeg0-dev).
        .target(name: "CTurboJPEG", dependencies: ["CDynamicLoad"], path: "Sources/CTurboJPEG", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd"),
        // MHD_start_daemon is variadic too.
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"], path: "Sources/CMicroHTTPDShim"),
        // Symbols and sixel drawing; Debian ships 1.12, so no passthrough or probing from it.
        // Loaded with dlopen when the first picture is drawn (libchafa0 at run time; headers: libchafa-dev),
        // so commands that draw none never map chafa, glib and pcre2.
        .target(name: "CChafa", dependencies: ["CDynamicLoad"], path: "Sources/CChafa",
                cSettings: [.unsafeFlags(chafaFolders.map { "-I\($0)" })], linkerSettings: [.linkedLibrary("dl")]),
        // zlib for kitty frames sent compressed (`o=z`): Foundation on Linux has no zlib API.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib"),
        // ncursesw for the TUI's text, keys and resize handling (Debian: libncurses-dev).
        .systemLibrary(name: "CNcurses", path: "Sources/CNcurses"),
        // The event journal, loaded with dlopen when the journal is first opened (libsqlite3-0 at run time;
        // headers: libsqlite3-dev), so commands that never read it (export, open, doors) never map it.
        .target(name: "CSQLite", dependencies: ["CDynamicLoad"], path: "Sources/CSQLite", linkerSettings: [.linkedLibrary("dl")]),
        // FFmpeg's demuxers, decoders and scaler for live video (RTSP, HLS); the shim header wraps the
        // error macros Swift cannot import. libavcodec, libswscale and libavutil are linked (mediastreamer
        // maps them anyway); libavformat and its ~17 dependencies are loaded with dlopen when a stream or
        // clip is first opened (libavformat59 at run time), so `ldd intercom-full` does not list them.
        // Headers: libavformat-dev, libavcodec-dev, libswscale-dev, libavutil-dev.
        .target(name: "CFFmpeg", dependencies: ["CDynamicLoad"], path: "Sources/CFFmpeg",
                linkerSettings: [.linkedLibrary("avcodec"), .linkedLibrary("swscale"), .linkedLibrary("avutil"),
                                 .linkedLibrary("dl")]),
        // gst-rtsp-server and appsrc: the simulated panel's camera over RTSP (x264enc from plugins-ugly at
        // run time). Only IntercomSimulator imports it, so `intercom` and `intercom-full` never link GStreamer.
        // Its header folders come from `gstreamerHeaders` (above), its libraries from module.modulemap.
        .systemLibrary(name: "CGstRTSPServer", path: "Sources/CGstRTSPServer",
                       providers: [.apt(["libgstrtspserver-1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        // sd_notify (READY, WATCHDOG and STOPPING for the systemd unit) and sd-bus (desktop notifications).
        .systemLibrary(name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd"),
        // libpq, PostgreSQL's client library, for a site of several desks: libpq-fe.h (Debian: libpq-dev) and a
        // table of its functions filled by dlopen when a desk first connects (libpq5 at run time), so a daemon
        // without `[site]` never maps it or its Kerberos, LDAP and SASL libraries. Not linked.
        .target(name: "CPostgres", dependencies: ["CDynamicLoad"], path: "Sources/CPostgres", linkerSettings: [.linkedLibrary("dl")]),
        // libmosquitto, the MQTT client for Home Assistant: mosquitto.h (Debian: libmosquitto-dev) and a
        // table of its functions filled by dlopen on first use, so a process without `[mqtt]` never maps
        // it (libmosquitto1 at run time). Not linked: `ldd intercom-full` does not list it.
        .target(name: "CMosquitto", dependencies: ["CDynamicLoad"], path: "Sources/CMosquitto", linkerSettings: [.linkedLibrary("dl")]),
        // Config, journal and JSON: no phone, no media, so the light commands start fast.
        .target(
            name: "IntercomBase",
            dependencies: ["CSQLite"],
            path: "Sources/IntercomBase"
        ),
        // The one libcurl client (panel CGI, the alarm stream, the TLS probe; the operator client next):
        // the only importer of CCurl.
        .target(
            name: "IntercomHTTP",
            dependencies: ["IntercomBase", "CCurl", "CCurlShim"],
            path: "Sources/IntercomHTTP"
        ),
        // JPEG decode/encode and the RGB image type: the only importer of CTurboJPEG. IntercomBase only
        // for DynamicLibrary (loading libturbojpeg, saying which package is missing).
        .target(
            name: "IntercomImaging",
            dependencies: ["IntercomBase", "CTurboJPEG"],
            path: "Sources/IntercomImaging"
        ),
        // The SIP phone on its liblinphone thread, call video and the SIP read hooks: the only
        // importer of CLinphone, CFrameSink and CSIPIngress.
        .target(
            name: "IntercomPhone",
            dependencies: ["IntercomBase", "CLinphone", "CFrameSink", "CSIPIngress"],
            path: "Sources/IntercomPhone"
        ),
        // The Beward panel client: CGI calls, snapshots (as JPEG bytes; the engine decodes), the alarm stream.
        .target(
            name: "IntercomPanel",
            dependencies: ["IntercomBase", "IntercomHTTP"],
            path: "Sources/IntercomPanel"
        ),
        // Live video: open an RTSP/HLS URL, decode on a thread per stream, scale to RGB at a requested size.
        // The only importer of CFFmpeg, with a Swift-only API.
        .target(
            name: "IntercomVideo",
            dependencies: ["IntercomBase", "IntercomImaging", "CFFmpeg"],
            path: "Sources/IntercomVideo"
        ),
        // The SmartYard mobile API client (login, doors, cameras, flat settings, sharing, the event
        // log) and the operator token store. No phone: the light `intercom` binary runs it.
        .target(
            name: "IntercomOperator",
            dependencies: ["IntercomBase", "IntercomHTTP"],
            path: "Sources/IntercomOperator"
        ),
        // A simulated Beward panel (HTTP CGI, alarm stream, a SIP phone that calls, the camera over RTSP) and a
        // simulated SmartYard operator (mobile API): the only importer of libmicrohttpd and GStreamer. Only `intercom-sim`, the bench and the
        // tests link it (`demo` runs `intercom-sim` as child processes).
        .target(
            name: "IntercomSimulator",
            dependencies: ["IntercomBase", "IntercomImaging", "IntercomPanel", "IntercomPhone", "CMicroHTTPD", "CMicroHTTPDShim",
                           "CGstRTSPServer"],
            path: "Sources/IntercomSimulator",
            swiftSettings: gstreamerHeaders
        ),
        // The engine's vocabulary that a screen shares with it, with no phone: its events (and their JSON
        // both ways), the doors' list, a peephole picture, which live stream a view plays.
        // What a screen works with in place of an engine (`IntercomLink`), and its client side of attach
        // (`RemoteLink`, over the control socket): no engine, no phone, so the light `intercom` runs an
        // attached screen without loading liblinphone.
        .target(
            name: "IntercomAttach",
            dependencies: ["IntercomBase", "IntercomImaging"],
            path: "Sources/IntercomAttach"
        ),
        // The engine (policies, calls, doors, events, journal recording, peephole). It knows no face: no
        // socket, no hooks, no systemd.
        .target(
            name: "IntercomCore",
            dependencies: ["IntercomBase", "IntercomHTTP", "IntercomImaging", "IntercomOperator", "IntercomPanel",
                           "IntercomPhone", "IntercomVideo"],
            path: "Sources/IntercomCore"
        ),
        // What makes an engine a daemon: the control socket, hooks, the event pipeline (journal, then hooks),
        // the stdout event printer, sd_notify and desktop notifications over sd-bus; both sides of a screen's
        // attach's daemon side and the own-engine link (LocalLink). The only importer of CSystemd.
        .target(
            name: "IntercomDaemon",
            dependencies: ["IntercomCore", "IntercomAttach", "IntercomBase", "IntercomImaging", "IntercomPhone",
                           "CSystemd"],
            path: "Sources/IntercomDaemon"
        ),
        // MQTT and Home Assistant discovery: a peer front end on the engine's events and commands, with
        // the MQTT client on a thread of its own. The only importer of CMosquitto.
        .target(
            name: "IntercomMQTT",
            dependencies: ["IntercomCore", "IntercomOperator", "IntercomBase", "CMosquitto"],
            path: "Sources/IntercomMQTT"
        ),
        // A site's PostgreSQL without the engine: the connection (its own thread, bound parameters only,
        // LISTEN/NOTIFY), the versioned schema and the journal's read, which the light `intercom log`
        // runs itself (no liblinphone). The only importer of CPostgres.
        .target(
            name: "IntercomPostgres",
            dependencies: ["IntercomBase", "CPostgres"],
            path: "Sources/IntercomPostgres"
        ),
        // A site of several desks: the engine's SiteStore on IntercomPostgres (the feed, the calls, the journal).
        .target(
            name: "IntercomSite",
            dependencies: ["IntercomBase", "IntercomCore", "IntercomPostgres"],
            path: "Sources/IntercomSite"
        ),
        // The terminal itself: the ncurses screen, the chafa canvas, raw mode, the window size, the
        // probe's exchange and the one writer to the tty. The only importer of CNcurses and CChafa,
        // with a Swift-only API (no C types cross it).
        .target(
            name: "IntercomTerminal",
            dependencies: ["IntercomBase", "CChafa", "CNcurses"],
            path: "Sources/IntercomTerminal",
            swiftSettings: [.unsafeFlags(chafaFolders.flatMap { ["-Xcc", "-I\($0)"] })]
        ),
        // The screens (call screen, kiosk, watch), capabilities and picture encoding, kept out of
        // IntercomCore so the daemon needs no chafa. The only importer of CZlib (the kitty encoder's).
        // They work on an `IntercomLink`, never the engine or the phone: the light `intercom` runs them attached.
        .target(
            name: "IntercomTUI",
            dependencies: ["IntercomAttach", "IntercomBase", "IntercomImaging", "IntercomTerminal", "CZlib"],
            path: "Sources/IntercomTUI"
        ),
        // The command-line machinery and the commands that need no phone: the journal, the control
        // socket, and the HTTP-only ones (open, doors, cameras, the operator commands).
        .target(
            name: "IntercomCLI",
            dependencies: ["IntercomBase", "IntercomHTTP", "IntercomPanel", "IntercomOperator", "IntercomPostgres"],
            path: "Sources/IntercomCLI"
        ),
        // The screen commands' lines (`tui`'s and `watch`'s options) and the screens attached to the daemon,
        // which both binaries run: no engine, no phone (the light `intercom` links it; ldd is checked).
        .target(
            name: "IntercomScreenCommands",
            dependencies: ["IntercomAttach", "IntercomBase", "IntercomCLI", "IntercomTUI"],
            path: "Sources/IntercomScreenCommands"
        ),
        // `intercom`: runs the light commands and a screen attached to the running daemon itself, and execs
        // `intercom-full` or `intercom-sim` for the rest (CommandIndex says which).
        .executableTarget(
            name: "intercom",
            dependencies: ["IntercomCLI", "IntercomBase", "IntercomScreenCommands"],
            path: "Sources/intercom",
            linkerSettings: lightStaticRuntime
        ),
        .executableTarget(
            name: "intercom-full",
            dependencies: ["IntercomCLI", "IntercomCore", "IntercomOperator", "IntercomTUI", "IntercomVideo", "IntercomMQTT",
                           "IntercomDaemon", "IntercomAttach", "IntercomBase", "IntercomImaging", "IntercomPanel", "IntercomPhone",
                           "IntercomScreenCommands", "IntercomTerminal", "IntercomSite", "IntercomPostgres"],
            path: "Sources/intercom-full",
            linkerSettings: sipReadHook
        ),
        // `simulate-panel` and `simulate-operator`: the one installed binary that links libmicrohttpd. Its
        // simulated panel runs a phone, so it exports the SIP read hooks too.
        .executableTarget(
            name: "intercom-sim",
            dependencies: ["IntercomCLI", "IntercomSimulator", "IntercomPhone", "IntercomBase"],
            path: "Sources/intercom-sim",
            swiftSettings: gstreamerHeaders,
            linkerSettings: sipReadHook
        ),
        // `make bench`: figures for BENCHMARKS.md, measured against the real binary.
        .executableTarget(
            name: "intercom-bench",
            dependencies: ["IntercomCore", "IntercomSimulator", "IntercomTUI", "IntercomTestSupport", "IntercomMQTT",
                           "IntercomBase", "IntercomImaging", "IntercomPhone"],
            path: "Sources/IntercomBench",
            swiftSettings: gstreamerHeaders,
            linkerSettings: sipReadHook
        ),
        // `make fuzz`: the parsers that read outside input, under libFuzzer (docs/PROOF.md). The ordinary
        // build is a replayer for seeds and crash inputs; built with -DINTERCOM_FUZZ -sanitize=fuzzer it fuzzes.
        .executableTarget(
            name: "intercom-fuzz",
            dependencies: ["IntercomCore", "IntercomTUI", "IntercomBase", "IntercomImaging", "IntercomPanel", "IntercomPhone"],
            path: "Sources/IntercomFuzz"
        ),
        // Test support shared by the test targets and the bench: processes, ports, sipp/kamailio/linphonec/tmux
        // harnesses, scenario texts, certificates. Foundation only, so it pulls no part into a test target.
        .target(name: "IntercomTestSupport", path: "Tests/IntercomTestSupport"),
        // Loopback phones for the tests that need a caller (phone, engine, simulator and end-to-end tests).
        .target(
            name: "IntercomPhoneTestSupport",
            dependencies: ["IntercomPhone", "IntercomBase", "IntercomTestSupport"],
            path: "Tests/IntercomPhoneTestSupport"
        ),
        // The engine on fakes: a phone that rings on demand, panels, operators and live video that record
        // what they were asked, a manual clock, and the rig that builds an `Intercom` on them in one line.
        .target(
            name: "IntercomCoreFakes",
            dependencies: ["IntercomBase", "IntercomCore", "IntercomImaging", "IntercomOperator", "IntercomPanel",
                           "IntercomPhone", "IntercomVideo", "IntercomTestSupport"],
            path: "Tests/IntercomCoreFakes"
        ),
        // Two kinds of test target, told apart by name so `make check` needs no list of suites:
        // - `Intercom<Part>Tests`, a part's unit tests: pure values, or the part on fakes with a manual clock;
        //   no peer process, no tmux, no test server, no real wait. None of them depends on IntercomSimulator
        //   (GStreamer) but the screens' renderers, which draw the simulator's synthetic frame.
        // - `Intercom<Part>IntegrationTests` and `IntercomEndToEndTests`: the part against real peers on
        //   loopback (sipp, linphone, tmux, mosquitto, the simulators, the built binary).
        // Targets that run a phone in process link `sipReadHook`, so their phones recognise callers by
        // source address as the daemon's do.
        // The package itself: every target declares what it imports, docs/DEVELOPMENT.md's layout names every target;
        // README stays short and the docs' links reach their files.
        .testTarget(name: "IntercomPackageTests", path: "Tests/IntercomPackageTests"),
        .testTarget(
            name: "IntercomBaseTests",
            dependencies: ["IntercomBase", "IntercomHTTP", "IntercomTestSupport"],
            path: "Tests/IntercomBaseTests"
        ),
        .testTarget(
            name: "IntercomCoreTests",
            dependencies: ["IntercomCore", "IntercomCoreFakes", "IntercomDaemon", "IntercomAttach",
                           "IntercomBase", "IntercomImaging", "IntercomOperator", "IntercomPanel", "IntercomPhone",
                           "IntercomMQTT", "IntercomPhoneTestSupport", "IntercomTestSupport"],
            path: "Tests/IntercomCoreTests"
        ),
        .testTarget(
            name: "IntercomDaemonTests",
            dependencies: ["IntercomDaemon", "IntercomCore", "IntercomCoreFakes", "IntercomAttach", "IntercomBase",
                           "IntercomImaging", "IntercomOperator", "IntercomPhone", "IntercomPhoneTestSupport",
                           "IntercomTestSupport"],
            path: "Tests/IntercomDaemonTests"
        ),
        .testTarget(
            name: "IntercomMQTTTests",
            dependencies: ["IntercomMQTT", "IntercomBase"],
            path: "Tests/IntercomMQTTTests"
        ),
        .testTarget(
            name: "IntercomPhoneTests",
            dependencies: ["IntercomPhone", "IntercomBase", "IntercomPhoneTestSupport"],
            path: "Tests/IntercomPhoneTests"
        ),
        .testTarget(
            name: "IntercomPanelTests",
            dependencies: ["IntercomPanel", "IntercomBase", "IntercomHTTP", "IntercomImaging", "IntercomTestSupport"],
            path: "Tests/IntercomPanelTests"
        ),
        .testTarget(
            name: "IntercomOperatorTests",
            dependencies: ["IntercomOperator", "IntercomCLI", "IntercomBase", "IntercomTestSupport"],
            path: "Tests/IntercomOperatorTests"
        ),
        .testTarget(
            name: "IntercomTUITests",
            dependencies: ["IntercomTUI", "IntercomCore", "IntercomBase", "IntercomImaging", "IntercomPhone",
                           "IntercomSimulator", "IntercomTestSupport"],
            path: "Tests/IntercomTUITests",
            swiftSettings: gstreamerHeaders
        ),
        .testTarget(
            name: "IntercomSiteTests",
            dependencies: ["IntercomPostgres", "IntercomBase", "IntercomTestSupport"],
            path: "Tests/IntercomSiteTests"
        ),
        .testTarget(
            name: "IntercomVideoTests",
            dependencies: ["IntercomVideo", "IntercomImaging"],
            path: "Tests/IntercomVideoTests"
        ),
        // The engine with its real phone on loopback, the control socket, hooks as processes, the journal
        // on disk, the peephole against the simulated panels.
        .testTarget(
            name: "IntercomCoreIntegrationTests",
            dependencies: ["IntercomCore", "IntercomCoreFakes", "IntercomDaemon", "IntercomAttach",
                           "IntercomBase", "IntercomImaging", "IntercomOperator", "IntercomPhone", "IntercomSimulator",
                           "IntercomVideo", "IntercomPhoneTestSupport", "IntercomTestSupport"],
            path: "Tests/IntercomCoreIntegrationTests",
            swiftSettings: gstreamerHeaders,
            linkerSettings: sipReadHook
        ),
        .testTarget(
            name: "IntercomPhoneIntegrationTests",
            dependencies: ["IntercomPhone", "IntercomBase", "IntercomPhoneTestSupport", "IntercomTestSupport"],
            path: "Tests/IntercomPhoneIntegrationTests",
            exclude: ["Fixtures"],
            linkerSettings: sipReadHook
        ),
        // The simulated panel is the panel client's counterpart on loopback.
        .testTarget(
            name: "IntercomPanelIntegrationTests",
            dependencies: ["IntercomPanel", "IntercomBase", "IntercomHTTP", "IntercomImaging", "IntercomSimulator", "IntercomTestSupport"],
            path: "Tests/IntercomPanelIntegrationTests",
            swiftSettings: gstreamerHeaders,
            linkerSettings: sipReadHook
        ),
        // The operator client against canned SmartYard answers on a loopback stub, and its commands
        // through the built binary.
        .testTarget(
            name: "IntercomOperatorIntegrationTests",
            dependencies: ["IntercomOperator", "IntercomCLI", "IntercomBase", "IntercomTestSupport"],
            path: "Tests/IntercomOperatorIntegrationTests"
        ),
        .testTarget(
            name: "IntercomSimulatorIntegrationTests",
            dependencies: ["IntercomSimulator", "CGstRTSPServer", "IntercomBase", "IntercomImaging", "IntercomPanel",
                           "IntercomPhone", "IntercomPhoneTestSupport", "IntercomTestSupport", "IntercomVideo"],
            path: "Tests/IntercomSimulatorIntegrationTests",
            swiftSettings: gstreamerHeaders,
            linkerSettings: sipReadHook
        ),
        // The screens in tmux and in a pty, against the built binary and the simulators.
        .testTarget(
            name: "IntercomTUIIntegrationTests",
            dependencies: ["IntercomTUI", "IntercomCore", "IntercomBase", "IntercomImaging", "IntercomPhone",
                           "IntercomTerminal", "IntercomSimulator", "IntercomTestSupport"],
            path: "Tests/IntercomTUIIntegrationTests",
            swiftSettings: gstreamerHeaders,
            linkerSettings: sipReadHook
        ),
        // The site's store against a real PostgreSQL 15 started per suite (initdb in a temp folder, loopback).
        .testTarget(
            name: "IntercomSiteIntegrationTests",
            dependencies: ["IntercomSite", "IntercomPostgres", "IntercomCore", "IntercomBase", "IntercomTestSupport"],
            path: "Tests/IntercomSiteIntegrationTests"
        ),
        // Live video against a real RTSP server (gst-rtsp-server) on loopback.
        .testTarget(
            name: "IntercomVideoIntegrationTests",
            dependencies: ["IntercomVideo", "IntercomImaging", "IntercomTestSupport"],
            path: "Tests/IntercomVideoIntegrationTests"
        ),
        // The daemon as a user runs it (the built binary), against sipp, kamailio, linphonec and tmux; faults,
        // hostile input and the security checks that need the whole process.
        .testTarget(
            name: "IntercomEndToEndTests",
            dependencies: ["IntercomCore", "IntercomDaemon", "IntercomBase", "IntercomPhone", "IntercomSimulator",
                           "IntercomCLI", "IntercomPanel", "IntercomPhoneTestSupport", "IntercomTestSupport"],
            path: "Tests/IntercomEndToEndTests",
            swiftSettings: gstreamerHeaders,
            linkerSettings: sipReadHook
        ),
    ]
)
