import Foundation

/// Standard base64 as the kitty and iTerm2 protocols take it.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        Array(Data(bytes).base64EncodedData())
    }
}
