/// `[sip]` while it is decoded: the account keys may come in any order, and only together do they
/// make a `SIPAccount` (or an error when there is no `account`).
struct SIPSectionDraft {
    var settings = SIPSettings.defaults
    var identity: String?
    var password: String?
    var proxy: String?
    var expires = 600
    /// The first non-empty key that only makes sense with an `account`.
    var accountOnlyEntry: INIEntry?

    mutating func noteAccountOnly(_ entry: INIEntry) {
        if !entry.value.isEmpty { accountOnlyEntry = accountOnlyEntry ?? entry }
    }

    func finish(_ section: INISection, file: String) throws(ConfigError) -> SIPSettings {
        var settings = settings
        if (settings.tls.certificate == nil) != (settings.tls.key == nil),
           let lone = section.entries.last(where: { ($0.key == "tls_cert" || $0.key == "tls_key") && !$0.value.isEmpty }) {
            let other = lone.key == "tls_cert" ? "tls_key" : "tls_cert"
            throw ConfigError(file: file, line: lone.line, key: lone.key, section: section.label,
                              message: "is set but '\(other)' is not", fix: "set both, or neither")
        }
        if let identity {
            settings.account = SIPAccount(identity: identity, password: password, proxy: proxy,
                                          expiresSeconds: expires)
        } else if let orphan = accountOnlyEntry {
            throw ConfigError(file: file, line: orphan.line, key: orphan.key, section: section.label,
                              message: "is set but there is no 'account'",
                              fix: "add 'account = sip:USER@REGISTRAR' or remove '\(orphan.key)'")
        }
        return settings
    }
}
