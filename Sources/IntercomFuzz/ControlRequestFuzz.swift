import IntercomCore
import IntercomBase

/// One control-socket line from a local client: parsed into a request; whatever comes out
/// (the request echoed as `intercom ctl` would send it, or the failure reply with its id)
/// must be JSON the client can read back.
enum ControlRequestFuzz {
    static func run(_ input: [UInt8]) {
        // The server cuts the byte stream at line feeds and parses each piece.
        for line in input.split(separator: 0x0A, omittingEmptySubsequences: false) {
            runLine(String(decoding: line, as: UTF8.self))
        }
    }

    private static func runLine(_ line: String) {
        switch ControlRequest.parse(line) {
        case .success(let request):
            let spelled = request.json.encoded
            guard case .success(let again) = ControlRequest.parse(spelled) else {
                preconditionFailure("the request's own spelling is refused: \(spelled)")
            }
            precondition(again.action == request.action, "the request changed on the way: \(spelled)")
            precondition(JSONValue.parse(ControlReply.success(id: request.id, data: .null).encoded) != nil)
        case .failure(let failure):
            let reply = ControlReply.failure(id: failure.id, error: failure.message).encoded
            precondition(JSONValue.parse(reply) != nil, "the failure reply is not JSON: \(reply)")
        }
    }
}
