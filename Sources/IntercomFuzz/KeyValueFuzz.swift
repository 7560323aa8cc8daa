import IntercomCore
import IntercomBase
import IntercomPanel

/// A `systeminfo_cgi` / `action=get` body as the panel client reads it: bytes decoded as
/// UTF-8 with repair, split into `Key=Value` pairs, the model name classified.
enum KeyValueFuzz {
    static func run(_ input: [UInt8]) {
        let body = KeyValueBody(parsing: String(decoding: input, as: UTF8.self))
        for (key, value) in body.pairs {
            precondition(!key.isEmpty, "keys are never empty")
            precondition(!key.contains("\n") && !value.contains("\n"), "a pair never spans lines")
            precondition(body[key] != nil, "every key can be looked up")
        }
        // What was read must read back the same when written out again one pair per line.
        let rewritten = body.pairs.map { "\($0.key)=\($0.value)" }.joined(separator: "\r\n")
        precondition(KeyValueBody(parsing: rewritten) == body, "pairs changed when written back: \(body.pairs)")
        if let model = body["DeviceModel"] { _ = PanelFamily(deviceModel: model) }
        for value in body.pairs.prefix(8).map(\.value) { _ = Door(value) }
    }
}
