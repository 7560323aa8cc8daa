import IntercomCore
import IntercomBase

/// The environment a hook runs with: the daemon's own (PATH, HOME, …) with every INTERCOM_*
/// variable replaced by those of the event. Values go in as they are: no shell ever reads them.
public enum HookEnvironment {
    /// `snapshot` and `clip`: the call's newest picture and its video clip, files in the journal.
    public static func make(event: IntercomEvent, snapshot: String?, clip: String? = nil,
                            base: [String: String]) -> [String: String] {
        var env = base.filter { !$0.key.hasPrefix("INTERCOM_") }
        env["INTERCOM_EVENT"] = event.name
        env["INTERCOM_JSON"] = event.json.encoded
        if let panel = event.panel { env["INTERCOM_PANEL"] = panel }
        if let call = event.call {
            env["INTERCOM_CALL"] = call.id.rawValue
            env["INTERCOM_FROM"] = call.from
        }
        if let snapshot { env["INTERCOM_SNAPSHOT"] = snapshot }
        if let clip { env["INTERCOM_CLIP"] = clip }
        // Who answered, opened or hung up, in the words a screen shows (`screen 2 (kiosk, anna)`).
        if let who = event.who { env["INTERCOM_WHO"] = who.description }
        return env
    }
}
