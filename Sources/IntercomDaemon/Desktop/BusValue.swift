import CSystemd
import Foundation

/// A D-Bus value as the notification client needs them: the basic types, string lists, byte
/// arrays, structs and `a{sv}` dictionaries. Written and read on the bus thread only
/// (`SessionBus`); no sd-bus type leaves this folder.
enum BusValue: Sendable, Equatable {
    case string(String)
    case uint32(UInt32)
    case int32(Int32)
    case byte(UInt8)
    case bool(Bool)
    case strings([String])
    case bytes([UInt8])
    case structure([BusValue])
    /// `a{sv}`: each value goes in a variant.
    case dictionary([(String, BusValue)])
    /// What a reader met and does not decode (its signature).
    case other(String)

    static func == (a: BusValue, b: BusValue) -> Bool { a.description == b.description }

    /// The D-Bus signature.
    var signature: String {
        switch self {
        case .string: "s"
        case .uint32: "u"
        case .int32: "i"
        case .byte: "y"
        case .bool: "b"
        case .strings: "as"
        case .bytes: "ay"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictionary: "a{sv}"
        case .other(let signature): signature
        }
    }

    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    var uint32Value: UInt32? { if case .uint32(let u) = self { u } else { nil } }
    var stringsValue: [String]? { if case .strings(let s) = self { s } else { nil } }
}

extension BusValue: CustomStringConvertible {
    var description: String {
        switch self {
        case .string(let s): s.debugDescription
        case .uint32(let u): "\(u)"
        case .int32(let i): "\(i)"
        case .byte(let b): "\(b)"
        case .bool(let b): "\(b)"
        case .strings(let list): "\(list)"
        case .bytes(let bytes): "<\(bytes.count) bytes>"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .dictionary(let entries): "{" + entries.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
        case .other(let signature): "<\(signature)>"
        }
    }
}

/// A failed sd-bus step: what was being done and the errno or D-Bus error name.
struct BusError: Error, CustomStringConvertible {
    var description: String

    init(_ what: String, code: Int32) {
        description = "\(what): \(String(cString: strerror(-code)))"
    }

    init(_ what: String, error: sd_bus_error, code: Int32) {
        if let name = error.name {
            let message = error.message.map { String(cString: $0) } ?? ""
            description = "\(what): \(String(cString: name))" + (message.isEmpty ? "" : " (\(message))")
        } else {
            description = "\(what): \(String(cString: strerror(-code)))"
        }
    }

    init(message: String) { description = message }
}

/// Writing and reading values on an sd-bus message (bus thread only).
enum BusCoding {
    static func append(_ value: BusValue, to message: OpaquePointer) throws(BusError) {
        func check(_ code: Int32) throws(BusError) {
            if code < 0 { throw BusError("cannot write \(value.signature) to a D-Bus message", code: code) }
        }
        switch value {
        case .string(let text):
            // A string's value is the char pointer itself, not a pointer to it.
            try check(text.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) })
        case .uint32(var number):
            try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &number))
        case .int32(var number):
            try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &number))
        case .byte(var number):
            try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "y")), &number))
        case .bool(let flag):
            // D-Bus booleans travel as 32-bit integers.
            var number: Int32 = flag ? 1 : 0
            try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &number))
        case .strings(let list):
            try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "s"))
            for item in list { try append(.string(item), to: message) }
            try check(sd_bus_message_close_container(message))
        case .bytes(let bytes):
            try check(bytes.withUnsafeBytes { sd_bus_message_append_array(message, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count) })
        case .structure(let fields):
            try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "r")), fields.map(\.signature).joined()))
            for field in fields { try append(field, to: message) }
            try check(sd_bus_message_close_container(message))
        case .dictionary(let entries):
            try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}"))
            for (key, item) in entries {
                try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "e")), "sv"))
                try append(.string(key), to: message)
                try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), item.signature))
                try append(item, to: message)
                try check(sd_bus_message_close_container(message))
                try check(sd_bus_message_close_container(message))
            }
            try check(sd_bus_message_close_container(message))
        case .other(let signature):
            throw BusError(message: "cannot write a value of signature \(signature)")
        }
    }

    /// The message's top-level values: strings, numbers and string lists decoded, the rest skipped.
    static func readAll(_ message: OpaquePointer) -> [BusValue] {
        var values: [BusValue] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { break }
            let code = UInt8(bitPattern: type)
            let inner = contents.map { String(cString: $0) }
            if let value = readBasic(message, code) {
                values.append(value)
            } else if code == UInt8(ascii: "a"), inner == "s", sd_bus_message_enter_container(message, type, "s") > 0 {
                var list: [String] = []
                while case .string(let item)? = readBasic(message, UInt8(ascii: "s")) { list.append(item) }
                _ = sd_bus_message_exit_container(message)
                values.append(.strings(list))
            } else {
                let signature = code == UInt8(ascii: "a") ? "a" + (inner ?? "") : String(UnicodeScalar(code))
                guard sd_bus_message_skip(message, signature) >= 0 else { break }
                values.append(.other(signature))
            }
        }
        return values
    }

    private static func readBasic(_ message: OpaquePointer, _ code: UInt8) -> BusValue? {
        let type = CChar(bitPattern: code)
        switch code {
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            var pointer: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &pointer) > 0, let pointer else { return nil }
            return .string(String(cString: pointer))
        case UInt8(ascii: "u"):
            var number: UInt32 = 0
            return sd_bus_message_read_basic(message, type, &number) > 0 ? .uint32(number) : nil
        case UInt8(ascii: "i"):
            var number: Int32 = 0
            return sd_bus_message_read_basic(message, type, &number) > 0 ? .int32(number) : nil
        case UInt8(ascii: "y"):
            var number: UInt8 = 0
            return sd_bus_message_read_basic(message, type, &number) > 0 ? .byte(number) : nil
        case UInt8(ascii: "b"):
            var number: Int32 = 0
            return sd_bus_message_read_basic(message, type, &number) > 0 ? .bool(number != 0) : nil
        default:
            return nil
        }
    }
}
