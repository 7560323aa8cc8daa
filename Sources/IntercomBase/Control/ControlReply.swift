/// The reply lines of the control socket: `{"reply":true,"id":…,"ok":…,"data"|"error":…}`.
public enum ControlReply {
    public static func success(id: JSONValue, data: JSONValue) -> JSONValue {
        .object([("reply", .bool(true)), ("id", id), ("ok", .bool(true)), ("data", data)])
    }

    /// `code`: the exit code the error has where it was raised (an engine's typed error), so
    /// `ctl` exits as the command would have in-process; nil: `ctl` exits 1.
    public static func failure(id: JSONValue, error: String, code: Int32? = nil) -> JSONValue {
        // One line, whatever the underlying error printed.
        let line = error.split(whereSeparator: \.isNewline).joined(separator: " ")
        var fields: [(String, JSONValue)] = [("reply", .bool(true)), ("id", id), ("ok", .bool(false)), ("error", .string(line))]
        if let code { fields.append(("code", .integer(Int(code)))) }
        return .object(fields)
    }

    /// The first line of an `events` stream: the status object under `"event":"state"`.
    public static func state(_ status: JSONValue, time: String) -> JSONValue {
        var fields: [(String, JSONValue)] = [("event", .string("state")), ("time", .string(time))]
        if case .object(let rest) = status { fields += rest }
        return .object(fields)
    }
}
