import CLinphone

/// liblinphone logs through one process-wide service, to stdout by default, which would
/// corrupt `--events json`. It is set before the first core exists and never changed.
enum LinphoneLogging {
    static func silenceOnce() {
        linphone_logging_service_set_log_level(linphone_logging_service_get(), LinphoneLogLevelFatal)
    }
}
