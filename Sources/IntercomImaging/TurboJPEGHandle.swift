import CTurboJPEG

/// A tjhandle that is destroyed with its owner, so early throws cannot leak it.
struct TurboJPEGHandle: ~Copyable {
    let raw: tjhandle

    init(compress: Bool) throws(JPEGError) {
        guard let raw = compress ? tjInitCompress() : tjInitDecompress() else { throw .unavailable }
        self.raw = raw
    }

    var lastError: String {
        guard let message = tjGetErrorStr2(raw) else { return "unknown error" }
        return String(cString: message)
    }

    deinit { tjDestroy(raw) }
}
