/// With `[mqtt]`, every panel and every operator needs a topic level and Home Assistant object ids
/// of its own: two names that `MQTTName.slug` folds into one (`Front door` and `front_door`)
/// would share one door button, and a press on it would open whichever panel the bridge tried
/// first. Refused at load, naming both. Without `[mqtt]` there are no topics, so nothing to refuse.
enum MQTTNameCheck {
    static func check(_ config: IntercomConfig, document: INIDocument, file: String) throws(ConfigError) {
        guard config.mqtt != nil else { return }
        for kind in ["panel", "operator"] {
            var first: [String: INISection] = [:]
            for section in document.sections where section.kind == kind {
                guard let name = section.name, !name.isEmpty else { continue }
                let slug = MQTTName.slug(name)
                guard let earlier = first[slug] else {
                    first[slug] = section
                    continue
                }
                throw ConfigError(file: file, line: section.line, section: section.label,
                                  message: "\(kind)s '\(earlier.name ?? "")' (line \(earlier.line)) and '\(name)' are both "
                                      + "'\(slug)' in MQTT topics and Home Assistant ids, so they would share one door button",
                                  fix: "rename one of them")
            }
        }
    }
}
