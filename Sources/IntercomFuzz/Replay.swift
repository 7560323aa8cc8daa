#if !INTERCOM_FUZZ
import Foundation

/// Without the fuzzer (the ordinary build): runs files through a target once, so seeds and
/// crash inputs can be replayed by `make test`, under valgrind, or in a debugger.
@main
struct Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            FileHandle.standardError.write(Data("usage: intercom-fuzz TARGET FILE|DIR...  (targets: \(FuzzTarget.names))\n".utf8))
            exit(64)
        }
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("intercom-fuzz: cannot read \(file)\n".utf8))
                    exit(66)
                }
                target.run([UInt8](data))
                count += 1
            }
        }
        print("intercom-fuzz: \(target.rawValue): \(count) inputs, no crash")
    }

    /// A directory stands for the files directly in it, in name order.
    private static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { path + "/" + $0 }
    }
}
#endif
