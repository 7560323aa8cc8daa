// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "intercom",
    products: [
        .executable(name: "intercom", targets: ["intercom"]),
        .library(name: "IntercomCore", targets: ["IntercomCore"]),
    ],
    targets: [
        // Debian's linphone.pc is broken (empty Libs:), so the module map links by name.
        .systemLibrary(name: "CLinphone", path: "Sources/CLinphone"),
        // The mediastreamer2 display filter that hands decoded call video to Swift.
        .target(name: "CFrameSink", path: "Sources/CFrameSink"),
        // Panel HTTP client: libcurl, plus typed wrappers for its variadic setopt/getinfo.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl"),
        .target(name: "CCurlShim", dependencies: ["CCurl"], path: "Sources/CCurlShim"),
        // JPEG decode/encode for snapshots and the simulated panel.
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg"),
        // The simulated panel's HTTP server, plus a wrapper for variadic MHD_start_daemon.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd"),
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"], path: "Sources/CMicroHTTPDShim"),
        .target(
            name: "IntercomCore",
            dependencies: ["CLinphone", "CFrameSink"]
                + ["CCurl", "CCurlShim"]
                + ["CTurboJPEG"]
                + ["CMicroHTTPD", "CMicroHTTPDShim"],
            path: "Sources/IntercomCore"
        ),
        .executableTarget(
            name: "intercom",
            dependencies: ["IntercomCore"],
            path: "Sources/intercom"
        ),
        .testTarget(
            name: "IntercomCoreTests",
            dependencies: ["IntercomCore", "CLinphone"],
            path: "Tests/IntercomCoreTests"
        ),
    ]
)
