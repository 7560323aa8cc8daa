import Foundation
import IntercomTestSupport
import IntercomBase
@testable import IntercomSimulator
import IntercomPhoneTestSupport
import Testing

/// The inbox as `inbox/*.php`: `unreaded` counts and marks nothing, `inbox` answers the page
/// (`basePath`, `code`) and marks every message read, `readed` marks one or all; each phone has its own.
@Suite(.removesTestFolders) struct OperatorSimulatorInboxTests {
    @Test func unreadedCountsInboxMarksAllReadReadedMarksOne() async throws {
        var options = SimulatedOperatorOptions(cameras: false)
        options.messages = ["Первое сообщение\nhttps://example.org/a 79001234567"]
        try await withOperator(options) { simulator, curl in
            let token = try await curl.login(simulator)
            let count = try await curl.post("inbox/unreaded", token: token)
            #expect(count.status == 200)
            #expect(count.data?["count"] == .integer(1) && count.data?["chat"] == .integer(0), "\(count.text)")
            // Asking for the count marks nothing.
            #expect(try await curl.post("inbox/unreaded", token: token).data?["count"] == .integer(1))

            let page = try await curl.post("inbox/inbox", token: token)
            #expect(page.status == 200)
            let code = try #require(page.data?["code"]?.stringValue, "\(page.text)")
            #expect(page.data?["basePath"]?.stringValue?.isEmpty == false)
            #expect(code.contains("<span class=\"inbox-date\">") && code.contains("<span class=\"inbox-message-time\">"), "\(code)")
            #expect(code.contains("Первое сообщение<br />\n"), "\(code)")
            #expect(code.contains("<a target=\"_blank\" href=\"https://example.org/a\">") && code.contains("href='tel:79001234567'"), "\(code)")
            #expect(try await curl.post("inbox/unreaded", token: token).data?["count"] == .integer(0))

            simulator.sendMessage("second")
            simulator.sendMessage("third")
            simulator.sendMessage("for someone else", to: "79001112233")
            #expect(try await curl.post("inbox/unreaded", token: token).data?["count"] == .integer(2))
            // The first of these has the id after the seeded message's.
            let one = try await curl.post("inbox/readed", #"{"messageId":"2"}"#, token: token)
            #expect(one.status == 204)
            #expect(try await curl.post("inbox/unreaded", token: token).data?["count"] == .integer(1))
            #expect(try await curl.post("inbox/readed", token: token).status == 204)
            #expect(try await curl.post("inbox/unreaded", token: token).data?["count"] == .integer(0))
            #expect(simulator.unreadCount("79001112233") == 1)
            #expect(try await curl.post("inbox/unreaded").status == 403)
        }
    }
}
