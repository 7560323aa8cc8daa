import CSIPIngress
#if canImport(Glibc)
import Glibc
#endif

/// The Swift half of the read hook in CSIPIngress: belle-sip's every UDP read passes through
/// here. A pure function of the bytes, so it needs no state and may run on any thread.
@_cdecl("intercom_sip_message_refused")
func intercomSIPMessageRefused(_ bytes: UnsafeRawPointer?, _ length: Int) -> Int32 {
    guard let bytes, length > 0 else { return 0 }
    let message = UnsafeRawBufferPointer(start: bytes, count: length)
    return SIPHeaderScreen.screen(message) == nil ? 0 : 1
}

/// Every read the hook let through, with the address it came from: the source ledger learns
/// which address each Call-ID arrived from.
@_cdecl("intercom_sip_message_observed")
func intercomSIPMessageObserved(_ bytes: UnsafeRawPointer?, _ length: Int, _ address: UnsafePointer<sockaddr>?,
                                _ addressLength: UInt32) {
    guard let bytes, length > 0, let address else { return }
    SIPSourceLedger.shared.observe(UnsafeRawBufferPointer(start: bytes, count: length),
                                   from: SocketAddressText.host(UnsafeRawBufferPointer(start: address, count: Int(addressLength))))
}

/// How many messages the read hook kept from belle-sip (0 when the hook is not linked in).
enum SIPIngress {
    static var replacedCount: UInt { UInt(intercom_sip_ingress_replaced_count()) }
}
