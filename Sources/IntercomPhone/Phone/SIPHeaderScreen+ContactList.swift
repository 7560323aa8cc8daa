extension SIPHeaderScreen {
    /// Counts a Contact header per binding: the 512-byte limit applies to each comma-separated
    /// address, and 4 KB to the whole list. A registrar's 200 OK to our REGISTER lists every binding
    /// of the account in one Contact (kamailio does), and five phones on one account pass 512 bytes.
    ///
    /// Only a comma outside quotes and outside `<…>` starts a new binding; a quote opened anywhere
    /// (even where belle-sip would not read one) keeps the count going. So a misreading can only
    /// count more than belle-sip's one address holds, never less: a 1 KB display name is still
    /// one binding, quoted or not.
    struct ContactListCount {
        var bindingBytes: Int
        private var quoted = false
        private var escaped = false
        private var angleDepth = 0

        init(bindingBytes: Int) {
            self.bindingBytes = bindingBytes
        }

        /// Takes one counted byte of the header (`headerBytes` so far, name included); a refusal
        /// when the binding or the list is too long.
        mutating func count(_ byte: UInt8, headerBytes: Int) -> Refusal? {
            if headerBytes > SIPHeaderScreen.maxContactListBytes {
                return Refusal(header: "Contact", limit: SIPHeaderScreen.maxContactListBytes)
            }
            bindingBytes += 1
            if bindingBytes > SIPHeaderScreen.maxAddressHeaderBytes {
                return Refusal(header: "Contact")
            }
            if quoted {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    quoted = false
                }
                return nil
            }
            switch byte {
            case UInt8(ascii: "\""): quoted = true
            case UInt8(ascii: "<"): angleDepth += 1
            case UInt8(ascii: ">"): angleDepth = max(0, angleDepth - 1)
            case UInt8(ascii: ",") where angleDepth == 0: bindingBytes = 0
            default: break
            }
            return nil
        }
    }
}
