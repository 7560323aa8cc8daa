#if canImport(Glibc)
import Glibc
#endif
import IntercomPhone
import IntercomBase

extension PhoneSettings {
    /// The phone the config describes. liblinphone's files go under intercom's data directory
    /// (`$XDG_DATA_HOME/intercom/sip`), beside the journal.
    public init(config: IntercomConfig, environment: [String: String], logger: Logger = Logger()) {
        func device(_ name: String) -> String? { name == "default" ? nil : name }
        self.init(
            listen: config.sip.listen,
            account: config.sip.account,
            dataDirectory: XDGDirectories(environment: environment).dataDirectory + "/sip",
            incomingTimeoutSeconds: config.sip.incomingTimeoutSeconds,
            audio: .devices(playback: device(config.audio.playback), capture: device(config.audio.capture)),
            noRTPTimeoutSeconds: config.sip.mediaTimeoutSeconds,
            tls: config.sip.tls,
            mediaEncryption: config.sip.mediaEncryption,
            maxCalls: config.sip.effectiveMaxCalls(panels: config.panels.count),
            callerGate: CallerGate(CallerDirectory(panels: config.panels, sip: config.sip, operatorCalls: !config.operators.isEmpty, logger: logger)))
    }
}

extension PhoneSettings {
    /// Without XDG_DATA_HOME and HOME, liblinphone's files (and its plugin folder, whose every
    /// libms*.so mediastreamer loads) go under the shared-/tmp fallback; it is used only when it
    /// is ours alone (`PrivateDirectory`). Callers check this before starting the phone.
    public func checkPrivateFallback(uid: UInt32 = getuid()) throws(PrivateDirectoryError) {
        try PrivateDirectory.ensureIfFallback(dataDirectory, uid: uid)
    }
}
