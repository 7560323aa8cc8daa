/// `[directory]`: the flats and extensions a desk transfers calls to, by name.
extension ConfigSchema {
    static var directory: ConfigSection<[String: String], [String: String]> {
        ConfigSection(
            kind: "directory",
            about: "Flats and extensions a call can be transferred to (`t` in a call, `intercom ctl transfer NAME`): "
                + "one `NAME = sip:URI` line each. Names are matched case-insensitively; a target that is not a name "
                + "here must be a `sip:` URI. SIGHUP applies changes to the next transfer.",
            example: ConfigExampleLine(key: "[directory]", "", ["transfer targets: NAME = sip:URI"]),
            keys: [
                ConfigKey("NAME", matches: { _ in true }, type: "sip: or sips: URI",
                          default: .note("none"), reload: .live,
                          about: "The SIP address a transfer to NAME goes to, e.g. `flat12 = sip:4012@pbx.example.org`.",
                          example: [ConfigExampleLine(key: "flat12", "sip:4012@pbx.example.org", width: 16, commentedOut: true)],
                          decode: { directory, entry, context throws(ConfigValueError) in
                              guard !entry.value.isEmpty else { return }
                              guard !directory.keys.contains(where: { $0.lowercased() == entry.key.lowercased() }) else {
                                  throw ConfigValueError("names '\(entry.key)' twice", fix: "keep one line per name")
                              }
                              directory[entry.key] = try ConfigDecoder.sipURI(entry.value, example: "\(entry.key) = sip:4012@pbx.example.org")
                          },
                          differs: { $0 != $1 }, apply: { $0 = $1 }),
            ],
            start: { _, _ in [:] },
            finish: { draft, _, _ throws(ConfigError) in draft },
            place: .single(\.directory))
    }
}
