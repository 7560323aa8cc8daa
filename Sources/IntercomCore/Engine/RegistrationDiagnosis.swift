import IntercomBase
import IntercomHTTP
/// Turns liblinphone's bare "io error" for a TLS registrar into the reason a user can act on.
public enum RegistrationDiagnosis {
    /// The reason to report for a failed registration: liblinphone's own, or, when the registrar
    /// is reached over TLS and our own handshake with the same trust settings fails, that failure.
    public static func explain(_ reason: String?, account: SIPAccount, tls: SIPTLSSettings) async -> String? {
        guard let registrar = RegistrarAddress(account: account), registrar.transport == .tls else { return reason }
        guard let failure = await TLSProbe.handshakeFailure(host: registrar.host, port: registrar.port, tls: tls) else {
            return reason
        }
        let isCertificate = failure.localizedLowercase.contains("certificate") || failure.contains("SSL")
        let fix = isCertificate
            ? "trust it with [sip] tls_ca = its CA certificate (PEM), or set tls_verify = off"
            : "check that the registrar listens for TLS at \(registrar.host):\(registrar.port)"
        return "TLS to \(registrar.host):\(registrar.port) failed: \(failure); \(fix)"
    }
}
