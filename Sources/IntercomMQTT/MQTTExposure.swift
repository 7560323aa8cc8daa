import IntercomBase

/// Who else can press the doors. The broker is a second control socket without a uid check: with
/// no user of ours (so the broker lets clients in without one) anyone who reaches it can publish
/// `PRESS`, and over plain TCP to another machine anyone on the path can read the password and
/// forge commands (refused at load unless `allow_plain = yes`, and then still said each start).
/// Said at the bridge's start and by `intercom doctor`.
public enum MQTTExposure {
    /// One line per exposure (without the `mqtt: ` prefix); empty when neither applies.
    public static func warnings(_ settings: MQTTSettings, topics: MQTTTopics, panels: [String], operators: Bool) -> [String] {
        var lines: [String] = []
        let doors = doorTopics(topics: topics, panels: panels, operators: operators)
        let fix = "limit who may publish to \(topics.root)/# with the broker's ACL (docs/MQTT.md)"
        if settings.user == nil {
            lines.append("[mqtt] has no user, so the broker \(settings.endpoint) takes clients without a login: anyone who "
                + "reaches it can open the doors by publishing PRESS to \(doors); set user and password, turn off "
                + "anonymous access (allow_anonymous false) and \(fix)")
        }
        if settings.plainOffLoopback {
            lines.append("[mqtt] url \(settings.url) is plain TCP to another machine (allowed by allow_plain = yes): the "
                + "password and every command cross the network in clear, and anyone on the path can open the doors by "
                + "publishing PRESS to \(doors); use mqtts:// (TLS), then remove allow_plain, and \(fix)")
        }
        return lines
    }

    /// The door command topics, named one by one for up to three panels, else as a pattern.
    static func doorTopics(topics: MQTTTopics, panels: [String], operators: Bool) -> String {
        var names: [String]
        if panels.count <= 3 {
            names = panels.flatMap { panel in ["main", "alt"].map { topics.panel(panel) + "/door/\($0)/open" } }
        } else {
            names = [topics.root + "/+/door/+/open (\(panels.count) panels)"]
        }
        if operators { names.append(topics.root + "/operator/+/open") }
        return names.isEmpty ? topics.root + "/+/door/+/open" : names.joined(separator: ", ")
    }
}
