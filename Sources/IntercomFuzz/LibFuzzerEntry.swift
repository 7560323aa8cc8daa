#if INTERCOM_FUZZ
import Foundation

// Built by `make fuzz` with `-sanitize=fuzzer`: libFuzzer owns `main` and calls these two.
// The target comes from the environment because libFuzzer's own argv parsing warns about
// and ignores flags it does not know.

/// Read once; libFuzzer calls the entry point from one thread.
private let selectedTarget: FuzzTarget? = getenv("INTERCOM_FUZZ_TARGET").flatMap {
    FuzzTarget(rawValue: String(cString: $0))
}

@_cdecl("LLVMFuzzerInitialize")
func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>?,
                      _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    if selectedTarget == nil {
        FileHandle.standardError.write(Data("intercom-fuzz: set INTERCOM_FUZZ_TARGET to one of: \(FuzzTarget.names)\n".utf8))
        exit(64)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget?.run(input)
    return 0
}
#endif
