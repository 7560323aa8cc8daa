import Foundation

/// What the operator simulator answers, before it becomes an MHD response.
enum OperatorReply: Sendable {
    /// A JSON body with this HTTP status (`application/json`, as the PHP server labels it).
    case json(status: UInt32, String)
    /// No body at all (204).
    case empty(status: UInt32)
    /// Any other bytes (a camshot JPEG, the garbage fault's HTML).
    case bytes(status: UInt32, type: String, Data)
    /// A never-ending-looking JSON answer of `bytes` bytes, chunked, with no Content-Length (the huge fault).
    case huge(bytes: UInt64)
    /// 206: the bytes `range` of `data` (`Content-Range: bytes FIRST-LAST/TOTAL`), as SmartYard's
    /// `cctv/download` answers a `Range: bytes=N-` (`Accept-Ranges: bytes`).
    case partial(type: String, Data, range: ClosedRange<Int>)

    var status: UInt32 {
        switch self {
        case .json(let status, _), .empty(let status), .bytes(let status, _, _): status
        case .huge: 200
        case .partial: 206
        }
    }

    /// A whole 200 body cut to what a `Range` header asks (`bytes=FIRST-[LAST]`, the form
    /// `cctv/download.php` reads); no header, another status or another form: the reply as it is.
    /// A first byte past the end is 416.
    func ranged(_ header: String?) -> OperatorReply {
        guard let header, case .bytes(200, let type, let data) = self else { return self }
        let spec = header.lowercased().replacingOccurrences(of: " ", with: "")
        guard spec.hasPrefix("bytes="), !spec.contains(",") else { return self }
        let bounds = spec.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]) else { return self }
        guard first < data.count else {
            return .bytes(status: 416, type: "text/plain", Data("the range starts past the end (\(data.count) bytes)\n".utf8))
        }
        let last = min(data.count - 1, Int(bounds[1]) ?? data.count - 1)
        guard last >= first else { return self }
        return .partial(type: type, data, range: first...last)
    }
}
