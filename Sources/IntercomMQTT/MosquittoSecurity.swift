import CMosquitto
import Foundation
import IntercomBase

/// The login and TLS settings of one libmosquitto client, applied before every connect, and
/// libmosquitto's TLS failures in plain words. Every call's return is checked: libmosquitto
/// answers an unreadable `cafile` by leaving TLS off, so a connect after an unchecked failure
/// would send the password in clear. Any failure here means: do not connect.
enum MosquittoSecurity {
    /// nil when the client may connect; else what is wrong, naming the `[mqtt]` key.
    static func apply(_ mosquitto: intercom_mosquitto, _ handle: OpaquePointer, _ options: MQTTClientOptions) -> String? {
        let describe = { (code: Int32) in Self.describe(mosquitto, code) }
        if let user = options.user {
            let code = mosquitto.username_pw_set(handle, user, options.password)
            guard code == MOSQ_ERR_SUCCESS.rawValue else {
                return "[mqtt] user and password: libmosquitto refused them (\(describe(code)))"
            }
        }
        guard options.tls else { return nil }
        if let ca = options.caFile {
            // Checked here, not only at config load: the file may have gone since (or, in a service
            // with PrivateTmp=yes, never been there).
            if let problem = MQTTCAFileCheck.problem(ca) { return "[mqtt] ca_file \(ca): \(problem.message) — \(problem.fix)" }
            let code = mosquitto.tls_set(handle, ca, nil, nil, nil, nil)
            guard code == MOSQ_ERR_SUCCESS.rawValue else {
                return "[mqtt] ca_file \(ca): cannot be used (\(describe(code)))"
            }
        } else {
            let code = mosquitto.int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
            guard code == MOSQ_ERR_SUCCESS.rawValue else {
                return "mqtts:// without [mqtt] ca_file: the system's CA store cannot be used (\(describe(code))); name the broker's CA in ca_file"
            }
        }
        // The broker's certificate must verify (1 = SSL_VERIFY_PEER), and its name must match the
        // host: both are libmosquitto's defaults, set here so no default can change them.
        var code = mosquitto.tls_opts_set(handle, 1, nil, nil)
        guard code == MOSQ_ERR_SUCCESS.rawValue else { return "mqtts://: certificate verification cannot be required (\(describe(code)))" }
        code = mosquitto.tls_insecure_set(handle, false)
        guard code == MOSQ_ERR_SUCCESS.rawValue else { return "mqtts://: the host name check cannot be required (\(describe(code)))" }
        return nil
    }

    /// A failed TLS connection in words, from libmosquitto's error log lines of that attempt
    /// (its return codes only say "A TLS error occurred." or "Protocol error").
    static func tlsFailure(_ log: [String], options: MQTTClientOptions) -> String? {
        let text = log.joined(separator: "\n").lowercased()
        if text.contains("host name verification failed") {
            return "the broker's certificate does not name \(options.host) (the host in [mqtt] url); use the name it has, or give the broker a certificate for this one"
        }
        if text.contains("certificate verify failed") {
            if let ca = options.caFile {
                return "the broker's certificate is not signed by [mqtt] ca_file \(ca) (or is out of its dates); give ca_file the CA that signed the broker's certificate"
            }
            return "the broker's certificate is not signed by a CA of the system store (or is out of its dates); name its CA in [mqtt] ca_file"
        }
        if text.contains("wrong version number") || text.contains("packet length too long") || text.contains("record layer failure") {
            return "the broker did not answer TLS on port \(options.port): is it a plain mqtt:// listener? (mqtts:// is usually port 8883)"
        }
        if text.contains("unexpected eof") {
            return "the broker closed the connection during the TLS handshake: is port \(options.port) its TLS listener? (mqtts:// is usually port 8883)"
        }
        if text.contains("unable to load ca certificates") {
            return "[mqtt] ca_file \(options.caFile ?? "") holds no certificate OpenSSL can load"
        }
        guard let last = log.last(where: { $0.contains("OpenSSL Error") || $0.lowercased().contains("tls") }) else { return nil }
        return "the TLS handshake failed (\(TerminalSafe.escape(last)))"
    }

    static func describe(_ mosquitto: intercom_mosquitto, _ code: Int32) -> String {
        mosquitto.strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
