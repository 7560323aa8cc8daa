internal import CTurboJPEG

/// A tjhandle that is destroyed with its owner, so early throws cannot leak it; `tj` is the loaded
/// library's table its calls go through.
struct TurboJPEGHandle: ~Copyable {
    let tj: intercom_turbojpeg
    let raw: tjhandle

    init(compress: Bool) throws(JPEGError) {
        let tj: intercom_turbojpeg
        switch TurboJPEGLibrary.loaded {
        case .success(let functions): tj = functions.c
        case .failure(let error): throw .notLoaded(error.description)
        }
        guard let raw = compress ? tj.init_compress() : tj.init_decompress() else { throw .unavailable }
        self.tj = tj
        self.raw = raw
    }

    var lastError: String {
        guard let message = tj.get_error_str2(raw) else { return "unknown error" }
        return String(cString: message)
    }

    deinit { _ = tj.destroy(raw) }
}
