import Foundation

/// `[panel NAME]`, continued: the call policies and the picture.
extension ConfigSchema {
    static var panelPolicyKeys: [PanelKey] {
        [
            .field("peephole_fps", \.peepholeFPS,
                   .decimal(0...30, openBelow: true, type: "frames per second, above 0 and at most 30",
                            message: { "'\($0)' is not a frame rate above 0 and at most 30" },
                            fix: "e.g. peephole_fps = 3"),
                   default: .value("3"), reload: .live,
                   about: "How often the panel's snapshot is polled while it rings, before the call's own video.",
                   example: [ConfigExampleLine("3", ["frames per second of the picture before answering (max 30)"])]),
            .field("calls", \.calls, .onOff, default: .value("on"), reload: .live,
                   about: "`off` is do not disturb for this panel: its calls are declined (SIP 600) and reported.",
                   example: [ConfigExampleLine("on", ["off = do not disturb for this panel (calls declined or ignored)"], width: 9)]),
            .field("auto_answer", \.autoAnswer, autoAnswerParser, default: .value("off"), reload: .live,
                   about: "Answer the panel's calls by themselves: `on` at once, or after a delay in seconds.",
                   example: [ConfigExampleLine("off", ["off | on | DELAY_SECONDS"])]),
            .field("guest_until", \.guestUntil, guestUntilParser, default: .value(""), reload: .live,
                   about: "\"Wait for guests\": until this time (RFC 3339, or `YYYY-MM-DD HH:MM` local time) a call is "
                       + "answered, the main door opened and the call ended by itself.",
                   example: [ConfigExampleLine("", ["\"wait for guests\": until this time (RFC 3339 or",
                                                    "\"YYYY-MM-DD HH:MM\" local), a call is answered,",
                                                    "the main door opened and the call ended by itself"])]),
        ]
    }

    static var panelMediaKeys: [PanelKey] {
        [
            .field("tls_insecure", \.tlsInsecure, .onOff, default: .value("off"), reload: .restart,
                   about: "`on` accepts a self-signed `https` certificate from the panel.",
                   example: [ConfigExampleLine("off", ["on = accept a self-signed https certificate"])]),
            .field("ca_file", \.caFile, ConfigValueParser.absolutePath.optional, default: .note("the system store"),
                   reload: .restart,
                   about: "Trust this CA certificate (PEM) for the panel's `https`.",
                   example: [ConfigExampleLine("", ["or trust this CA certificate (PEM path) for https"], width: 9)]),
            .field("rtsp", \.rtsp, .panelStream(example: "rtsp = rtsp://192.168.1.50:554/av0_0"),
                   default: .note("`rtsp://HOST:554/av0_0`, HOST from `url`"), reload: .live,
                   about: "The camera's live stream (RTSP over TCP, the panel's `user` and `password`, Digest or Basic "
                       + "as the panel asks). `intercom watch` and the call screen play it; `off` keeps to snapshots.",
                   example: [ConfigExampleLine("", ["the camera's live stream; default rtsp://HOST:554/av0_0",
                                                    "from url (the panel's user and password); off = snapshots"], width: 9)]),
            .field("rtsp_sub", \.rtspSub, .panelStream(example: "rtsp_sub = rtsp://192.168.1.50:554/av0_1"),
                   default: .note("`rtsp` with `av0_0` turned into `av0_1`"), reload: .live,
                   about: "The camera's smaller sub stream, for the kiosk's tiles; `off` gives the tiles snapshots.",
                   example: [ConfigExampleLine("", ["the smaller sub stream for kiosk tiles; default rtsp with",
                                                    "av0_0 turned into av0_1"], width: 9)]),
            .field("record", \.record, .choice, default: .value("off"), reload: .live,
                   about: "Video clips of this panel's calls, kept in the journal beside the pictures: `calls` records "
                       + "each answered call (both sides' audio and the panel's video, one `.mkv` per call); `rings` also "
                       + "records the `rtsp` stream from the ring on, answered or not (a missed visitor). Clips count in "
                       + "`[journal] max_mb` and go with their entries.",
                   example: [ConfigExampleLine("off", ["calls | rings | off : clips kept in the journal"], width: 9)]),
            PanelKey("stream", type: "main | sub (empty = the panel's choice)", default: .note("the panel's choice"),
                     reload: .restart,
                     about: "The video stream to ask for. Not sent to the panel yet (a warning says so): choose "
                         + "StreamType in the panel's web interface.",
                     example: [ConfigExampleLine("", ["main | sub : not sent to the panel yet (a warning says so);",
                                                      "pick StreamType in the panel's web UI"], width: 9)],
                     decode: { panel, entry, context throws(ConfigValueError) in
                         let text = entry.value
                         if text.isEmpty {
                             panel.stream = nil
                             return
                         }
                         guard text == "main" || text == "sub" else {
                             throw ConfigValueError("'\(text)' is not main or sub", fix: "use main or sub")
                         }
                         panel.stream = text
                         // Which value Beward's sip_cgi StreamType takes is not known for sure;
                         // writing a wrong one could blank a real panel's video.
                         context.warn(entry, "[\(context.section.label)] stream is not sent to the panel yet; choose the SIP video stream (StreamType) in the panel's web interface")
                     },
                     differs: { $0.stream != $1.stream }),
            .field("syslog", \.syslog, ConfigValueParser.onOff.optional, default: .note("on when `[syslog]` is there"),
                   reload: .restart,
                   about: "Hear this panel's syslog (`[syslog]`): who opened a door, which flat it calls. `on` without a "
                       + "`[syslog]` section listens on udp:0.0.0.0:5514; `off` ignores this panel's lines.",
                   example: [ConfigExampleLine("", ["on | off : hear its syslog ([syslog]; intercom setup --syslog)"], width: 9)]),
        ]
    }

    static var autoAnswerParser: ConfigValueParser<AutoAnswer> {
        ConfigValueParser(type: "off | on | delay in seconds (0 to 3600)") { text, _ throws(ConfigValueError) in
            try ConfigDecoder.autoAnswer(text)
        }
    }

    static var guestUntilParser: ConfigValueParser<Date?> {
        ConfigValueParser(type: "RFC 3339 time or `YYYY-MM-DD HH:MM` local (empty = off)") { text, context throws(ConfigValueError) in
            text.isEmpty ? nil : try GuestTimeParser.parse(text, timeZone: context.timeZone)
        }
    }
}
