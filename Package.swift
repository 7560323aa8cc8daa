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
        .target(
            name: "CFrameSink",
            path: "Sources/CFrameSink",
            linkerSettings: [.linkedLibrary("mediastreamer"), .linkedLibrary("ortp"), .linkedLibrary("bctoolbox")]
        ),
        .target(
            name: "IntercomCore",
            dependencies: ["CLinphone", "CFrameSink"],
            path: "Sources/IntercomCore"
        ),
        .executableTarget(
            name: "intercom",
            dependencies: ["IntercomCore"],
            path: "Sources/intercom"
        ),
        // `make bench`: figures for BENCHMARKS.md, measured against the real binary.
        .executableTarget(
            name: "intercom-bench",
            dependencies: ["IntercomCore"],
            path: "Sources/IntercomBench"
        ),
        .testTarget(
            name: "IntercomCoreTests",
            dependencies: ["IntercomCore", "CLinphone"],
            path: "Tests/IntercomCoreTests",
            exclude: ["Fixtures"]
        ),
    ]
)
