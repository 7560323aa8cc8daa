/// Indented JSON for people (`intercom ctl status`); machines get `encoded`, one line.
extension JSONValue {
    public var pretty: String {
        var out = ""
        writePretty(into: &out, indent: "")
        return out
    }

    private func writePretty(into out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                item.writePretty(into: &out, indent: inner)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let fields) where !fields.isEmpty:
            out += "{\n"
            for (i, (key, value)) in fields.enumerated() {
                out += inner + JSONValue.string(key).encoded + ": "
                value.writePretty(into: &out, indent: inner)
                out += i + 1 < fields.count ? ",\n" : "\n"
            }
            out += indent + "}"
        default:
            out += encoded
        }
    }
}
