import Foundation

/// Finds the SIP header lines liblinphone 5.1 does not survive, before belle-sip parses them.
///
/// An INVITE whose From carries a display name of about 1020 characters or more makes
/// liblinphone dereference a null address in `makeLocalMediaDescription` (a crash, from one
/// datagram, by anyone); long users and hosts in From, To or Contact cost belle-sip's parser
/// seconds of CPU on the phone thread (0.15 s at 512 bytes, 2–3 s at 4 KB). Real panels and
/// phones send these headers in well under 300 bytes. The screen works byte by byte and keeps its
/// state between calls, so a message may be fed in pieces; folded (continued) lines count toward
/// the header they continue.
struct SIPHeaderScreen {
    /// The longest From, To or Contact header accepted, name and folds included; in a Contact list,
    /// the longest binding (a registrar's 200 OK lists every binding of the account in one header).
    static let maxAddressHeaderBytes = 512
    /// The longest Contact header, all its bindings together (DECISIONS.md, "Contact lists").
    static let maxContactListBytes = 4096

    /// Why a message was refused, for the log.
    struct Refusal: Equatable, CustomStringConvertible {
        let header: String
        var limit = SIPHeaderScreen.maxAddressHeaderBytes
        var description: String { "a \(header) header longer than \(limit) bytes" }
    }

    /// From, To, Contact and their compact forms (RFC 3261 §7.3.3).
    private static let addressHeaders: [String: String] = [
        "from": "From", "f": "From", "to": "To", "t": "To", "contact": "Contact", "m": "Contact",
    ]
    /// Longer names are no address header; the name is not collected further.
    private static let longestName = 16

    private var atLineStart = true
    private var name: [UInt8] = []
    private var nameDone = false
    /// Blanks in the name part (`From  :`), counted toward the header but kept out of the name.
    private var nameBlanks = 0
    /// belle-sip ends a header at CRLF, not at a bare LF: `From: "A…\nxyz\n\tA…" <sip:…>` is one From to
    /// it (a 1200-character display name that crashed liblinphone, found by the `sip` fuzz target).
    /// After a bare LF the next line is still looked at for a header name (a reader that does split
    /// there sees one), but an address header's count goes on through it.
    private var afterCR = false
    private var afterBareLF = false
    private var continuesAddress: Bool { afterBareLF && address != nil }
    /// The header being read (through its folds), when it is an address header.
    private var address: String?
    private var addressBytes = 0
    /// Where a Contact header's bindings begin and end.
    private var contactList = ContactListCount(bindingBytes: 0)

    /// Feeds more of the message; the first refusal ends screening (later calls return it again).
    mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> Refusal? where Bytes.Element == UInt8 {
        if let refused { return refused }
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                atLineStart = true
                afterBareLF = !afterCR
                afterCR = false
                continue
            }
            defer { afterCR = byte == UInt8(ascii: "\r") }
            if atLineStart {
                atLineStart = false
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                    // A fold: the previous header goes on.
                    nameDone = true
                } else {
                    if !continuesAddress {
                        address = nil
                        addressBytes = 0
                    }
                    name.removeAll(keepingCapacity: true)
                    nameBlanks = 0
                    nameDone = false
                }
            }
            if !nameDone {
                if byte == UInt8(ascii: ":") {
                    nameDone = true
                    let key = String(decoding: name, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
                    if continuesAddress {
                        // After a bare LF: still the header before, or a new address header; counted as one.
                        if let next = Self.addressHeaders[key] { address = next }
                        contactList = ContactListCount(bindingBytes: addressBytes)
                    } else {
                        address = Self.addressHeaders[key]
                        addressBytes = name.count + nameBlanks
                        contactList = ContactListCount(bindingBytes: addressBytes)
                    }
                } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                    // RFC 3261 allows blanks before the colon and belle-sip reads `From      :` as From:
                    // they must not push the name past the length cut (found by the `sip` fuzz target).
                    nameBlanks += 1
                } else if byte == UInt8(ascii: "\r") || name.count >= Self.longestName {
                    nameDone = true
                } else {
                    name.append(byte)
                }
            }
            if let header = address, byte != UInt8(ascii: "\r") {
                addressBytes += 1
                if header == "Contact" {
                    if let refusal = contactList.count(byte, headerBytes: addressBytes) {
                        refused = refusal
                        return refused
                    }
                } else if addressBytes > Self.maxAddressHeaderBytes {
                    refused = Refusal(header: header)
                    return refused
                }
            }
        }
        return nil
    }

    private var refused: Refusal?

    /// A whole message (one UDP datagram) at once.
    static func screen<Bytes: Sequence>(_ message: Bytes) -> Refusal? where Bytes.Element == UInt8 {
        var screen = SIPHeaderScreen()
        return screen.feed(message)
    }
}
