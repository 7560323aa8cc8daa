/// `[sip]`: where we listen, who may call, the registrar account, TLS and SRTP.
extension ConfigSchema {
    typealias SIPKey = ConfigKey<SIPSectionDraft, SIPSettings>

    static var sip: ConfigSection<SIPSectionDraft, SIPSettings> {
        ConfigSection(
            kind: "sip",
            about: "The SIP side: where the client listens, which callers it takes, and an optional registrar account. "
                + "No key here is applied by SIGHUP: the phone is set up once.",
            example: ConfigExampleLine(key: "[sip]", ""),
            keys: sipCallKeys + sipAccountKeys + sipTLSKeys,
            start: { _, _ in SIPSectionDraft() },
            finish: { draft, section, file throws(ConfigError) in try draft.finish(section, file: file) },
            place: .single(\.sip))
    }

    private static var sipCallKeys: [SIPKey] {
        [
            .field("listen", \.settings.listen, listenParser, compare: \.listen,
                   default: .value("udp:127.0.0.1:5060"), reload: .restart,
                   about: "The addresses SIP is taken on, comma separated: `udp:HOST:PORT` or `tcp:HOST:PORT`, "
                       + "IPv6 in brackets (`tcp:[::1]:5070`), port 0 for any free port. `tls:` is refused: "
                       + "liblinphone cannot accept incoming SIP over TLS.",
                   example: [ConfigExampleLine("udp:0.0.0.0:5060", [
                       "one or more of udp:/tcp:HOST:PORT, comma separated; where",
                       "the panels can reach us (without this line: 127.0.0.1 only,",
                       "which hears callers on this machine alone). IPv6 in brackets:",
                       "tcp:[::1]:5070; port 0 = any free port; no tls: liblinphone",
                       "takes no incoming TLS, see tls_ca below"])]),
            .field("unknown_callers", \.settings.unknownCallers, .choice, compare: \.unknownCallers,
                   default: .value("reject"), reload: .restart,
                   about: "What happens to a call whose caller matches no panel: `reject` declines it, `accept` lets it ring.",
                   example: [ConfigExampleLine("reject", ["reject | accept  (calls whose caller matches no panel)"])]),
            .field("ring_timeout", \.settings.incomingTimeoutSeconds, .integer(1...3600, unit: "seconds"),
                   compare: \.incomingTimeoutSeconds, default: .value("90"), reload: .restart,
                   about: "Seconds an unanswered call rings before it ends as missed.",
                   example: [ConfigExampleLine("90", ["seconds an unanswered call rings before it counts as missed"])]),
            .field("decline_others", \.settings.declineOthersOnAnswer, .onOff, compare: \.declineOthersOnAnswer,
                   default: .value("off"), reload: .restart,
                   about: "`on`: answering one call declines the others still ringing (a household with one door); "
                       + "`off` keeps them ringing in the queue (a concierge desk).",
                   example: [ConfigExampleLine("off", ["on = answering one call declines the others still ringing"])]),
            .field("media_timeout", \.settings.mediaTimeoutSeconds, .integer(1...3600, unit: "seconds"),
                   compare: \.mediaTimeoutSeconds, default: .value("30"), reload: .restart,
                   about: "An answered call whose caller sends no RTP for this many seconds ends with `reason: error` "
                       + "(a panel that lost power never sends BYE).",
                   example: [ConfigExampleLine("30", ["seconds without RTP before an answered call ends (reason: error)"])]),
            .field("max_calls", \.settings.maxCalls, ConfigValueParser.integer(1...1000, unit: "calls").optional,
                   compare: \.maxCalls, default: .note("the number of panels plus 4, at least 10"), reload: .restart,
                   about: "How many calls the desk holds at once, ringing or answered (liblinphone's "
                       + "`linphone_core_set_max_calls`; its own default is 10). One more is refused with 486 Busy by "
                       + "liblinphone and still reported: `call_incoming`, then `call_ended` with reason `busy`, journaled "
                       + "as missed. A ringing call costs little (two UDP port pairs, about 9 ms of the SIP thread to set "
                       + "up, its peephole polling); an answered one decodes audio and video (a fraction of a core each).",
                   example: [ConfigExampleLine("20", ["calls at once (unset: panels + 4, at least 10); one more",
                                                    "is refused 486 Busy and reported as call_ended reason busy"],
                                               commentedOut: true)]),
        ]
    }

    private static var sipAccountKeys: [SIPKey] {
        [
            .field("account", \.identity, ConfigValueParser.sipURI().optional, compare: \.account?.identity,
                   default: .value(""), reload: .restart,
                   about: "A registrar account (`sip:` or `sips:` URI). Without it the client takes direct calls only. "
                       + "`password`, `proxy` and `register_expires` need it.",
                   example: [ConfigExampleLine("sip:101@pbx.example.org", width: 8, commentedOut: true,
                                               before: ["# registrar account (optional; without it the client takes direct calls only)"])]),
            SIPKey("password", type: "text (never shown)", default: .value(""), reload: .restart,
                   about: "The account's password. A file that holds one must not be readable by others (`chmod 600`).",
                   example: [ConfigExampleLine("secret", width: 8, commentedOut: true)],
                   decode: { draft, entry, _ throws(ConfigValueError) in
                       draft.password = entry.value.isEmpty ? nil : entry.value
                       draft.noteAccountOnly(entry)
                   },
                   differs: { $0.account?.password != $1.account?.password }),
            SIPKey("proxy", type: ConfigValueParser.sipURI().optional.type, default: .note("the account's domain"),
                   reload: .restart,
                   about: "The outbound proxy URI; may carry `;transport=tcp` or `;transport=tls` (SIP over TLS: `sip:HOST:5061;transport=tls`).",
                   example: [ConfigExampleLine("sip:pbx.example.org:5060;transport=tcp", width: 8, commentedOut: true)],
                   decode: { draft, entry, context throws(ConfigValueError) in
                       draft.proxy = try ConfigValueParser.sipURI().optional.parse(entry.value, context.parse)
                       draft.noteAccountOnly(entry)
                   },
                   differs: { $0.account?.proxy != $1.account?.proxy }),
            SIPKey("register_expires", type: ConfigValueParser.integer(60...86400, unit: "seconds").type,
                   default: .note("`600`"), reload: .restart,
                   about: "Seconds between re-registrations.",
                   example: [ConfigExampleLine("600", ["seconds between re-registrations"], commentedOut: true)],
                   decode: { draft, entry, context throws(ConfigValueError) in
                       draft.expires = try ConfigValueParser.integer(60...86400, unit: "seconds").parse(entry.value, context.parse)
                       draft.noteAccountOnly(entry)
                   },
                   differs: { $0.account?.expiresSeconds != $1.account?.expiresSeconds }),
        ]
    }

    private static var sipTLSKeys: [SIPKey] {
        [
            .field("tls_ca", \.settings.tls.caFile, ConfigValueParser.absolutePath.optional, compare: \.tls.caFile,
                   default: .note("the system store"), reload: .restart,
                   about: "The CA certificate(s) trusted for a registrar reached over TLS: a PEM file or a directory.",
                   example: [ConfigExampleLine("", ["its CA certificate(s), PEM file or directory (empty = system store)"], width: 10,
                                               before: ["# SIP over TLS goes to a registrar: proxy = sip:HOST:5061;transport=tls (or a sips: account)"])]),
            .field("tls_verify", \.settings.tls.verify, .onOff, compare: \.tls.verify,
                   default: .value("on"), reload: .restart,
                   about: "`off` accepts any registrar certificate: for a lab only.",
                   example: [ConfigExampleLine("on", ["off accepts any registrar certificate: a lab only"], width: 10)]),
            .field("tls_cert", \.settings.tls.certificate, ConfigValueParser.absolutePath.optional, compare: \.tls.certificate,
                   default: .value(""), reload: .restart,
                   about: "Our client certificate (PEM), for a registrar that asks for one. Set together with `tls_key`.",
                   example: [ConfigExampleLine("", ["our client certificate (PEM), for a registrar that asks for one"], width: 10)]),
            .field("tls_key", \.settings.tls.key, ConfigValueParser.absolutePath.optional, compare: \.tls.key,
                   default: .value(""), reload: .restart,
                   about: "The private key of `tls_cert` (PEM, unencrypted, readable by the owner only).",
                   example: [ConfigExampleLine("", ["its private key (PEM, unencrypted, chmod 600)"], width: 10)]),
            .field("media_encryption", \.settings.mediaEncryption, .choice, compare: \.mediaEncryption,
                   default: .value("none"), reload: .restart,
                   about: "SRTP for call audio and video. Beward panels send plain RTP: `srtp_mandatory` refuses them.",
                   example: [ConfigExampleLine("none", ["none | srtp | srtp_mandatory: SRTP for call audio/video",
                                                        "(Beward panels send plain RTP: srtp_mandatory refuses them)"])]),
        ]
    }

    /// `listen`: one or more `udp:`/`tcp:` addresses.
    static var listenParser: ConfigValueParser<[ListenAddress]> {
        ConfigValueParser(type: "comma-separated `udp:HOST:PORT` / `tcp:HOST:PORT`") { text, _ throws(ConfigValueError) in
            let items = try ConfigDecoder.list(text)
            guard !items.isEmpty else {
                throw ConfigValueError("needs at least one address", fix: "e.g. udp:127.0.0.1:5060")
            }
            var addresses: [ListenAddress] = []
            for item in items {
                let address = try ListenAddress(parsing: item)
                // belle-sip 5.1 accepts a TLS connection and closes it at once ("not handled"):
                // a tls: listener would look like it works and take no call.
                guard address.transport != .tls else {
                    throw ConfigValueError(
                        "'\(item)': liblinphone cannot take incoming SIP over TLS (it closes every such connection)",
                        fix: "remove it; for SIP over TLS register with account and proxy = sip:HOST:5061;transport=tls")
                }
                addresses.append(address)
            }
            return addresses
        }
    }
}
