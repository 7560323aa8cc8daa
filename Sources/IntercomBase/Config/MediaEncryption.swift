/// `[sip] media_encryption`: whether call media (RTP) is encrypted with SRTP (SDES keys in the SDP).
/// Beward panels send plain RTP, so the default is `none`; `srtp` offers and accepts SRTP but still
/// takes a plain caller, `srtp_mandatory` refuses one (488 Not Acceptable Here).
public enum MediaEncryption: String, Sendable, Equatable, CaseIterable {
    case none
    case srtp
    case srtpMandatory = "srtp_mandatory"
}
