@testable import IntercomPhone
import Testing

/// The TCP framer: every message's head is judged whole however the stream is cut, refused messages
/// (head and body) are cut out, and what is not SIP ends the connection.
@Suite struct SIPStreamFramerTests {
    /// Feeds `pieces` one read at a time; returns what belle-sip got per read and the heads judged.
    static func run(_ pieces: [String], refusing refused: Set<String> = ["MESSAGE"]) -> (reads: [String?], judged: [String]) {
        var framer = SIPStreamFramer()
        var judged: [String] = []
        let reads = pieces.map { piece -> String? in
            Array(piece.utf8).withUnsafeBytes { bytes in
                framer.feed(bytes) { head in
                    let method = String(decoding: head.prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self)
                    judged.append(method)
                    return !refused.contains(method)
                }.map { String(decoding: $0, as: UTF8.self) }
            }
        }
        return (reads, judged)
    }

    static let options = SIPStrangerScreenTests.request("OPTIONS", callID: "o")
    static let message = SIPStrangerScreenTests.request("MESSAGE", callID: "m", body: String(repeating: "m", count: 300))
    static let bye = SIPStrangerScreenTests.request("BYE", callID: "b", body: "bye-body")

    @Test func severalMessagesInOneReadAreEachJudgedAndRefusedOnesCutOut() {
        let result = Self.run([Self.options + Self.message + Self.bye])
        #expect(result.judged == ["OPTIONS", "MESSAGE", "BYE"])
        #expect(result.reads == [Self.options + Self.bye])
    }

    @Test func aHeadSplitAcrossReadsIsHeldUntilItEnds() {
        let cut = Self.bye.index(Self.bye.startIndex, offsetBy: 40)
        let result = Self.run([String(Self.bye[..<cut]), String(Self.bye[cut...])])
        #expect(result.reads == ["", Self.bye], "nothing of the head reaches belle-sip before it is judged")
        #expect(result.judged == ["BYE"])
    }

    @Test func aRefusedMessagesBodyIsCutOutAcrossReadsAndTheStreamGoesOn() {
        let headEnd = Self.message.range(of: "\r\n\r\n")!.upperBound
        let inBody = Self.message.index(headEnd, offsetBy: 100)
        let result = Self.run([String(Self.message[..<inBody]), String(Self.message[inBody...]) + "\r\n" + Self.options])
        #expect(result.reads == ["", "\r\n" + Self.options])
        #expect(result.judged == ["MESSAGE", "OPTIONS"])
    }

    @Test func oneByteAtATimeStillFramesEveryMessage() {
        let stream = Self.message + Self.bye
        let result = Self.run(stream.map { String($0) })
        #expect(result.judged == ["MESSAGE", "BYE"])
        #expect(result.reads.compactMap { $0 }.joined() == Self.bye)
    }

    @Test func whatIsNoSIPEndsTheConnection() {
        #expect(Self.run(["junk " + Self.options]).reads == [nil], "no start line where a message starts")
        #expect(Self.run([String(repeating: "X", count: SIPStreamFramer.maxHeldHead + 1)]).reads == [nil], "a head that never ends")
        #expect(Self.run([SIPStrangerScreenTests.request("BYE", contentLength: "x1")]).reads == [nil], "a Content-Length that is no number")
        // A request line in a passing message's body: belle-sip reads one there when it drops the head before.
        let smuggler = SIPStrangerScreenTests.request("BYE", body: "\r\n" + SIPStrangerScreenTests.request("MESSAGE"))
        #expect(Self.run([smuggler]).reads == [nil])
    }
}
