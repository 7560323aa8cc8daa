import Foundation
import Testing
@testable import IntercomOperator

/// `inbox/inbox`'s page read back as inbox.php writes it: a date line before each day's first
/// message, nl2br's `<br />` plus newline, Parsedown's links with `target`, `tel:` links for
/// phone numbers, escaped text; and the roommates' expiry.
@Suite struct InboxPageTests {
    static let page = """
        <!DOCTYPE html><html lang="ru"><body><div class="inbox-block">\
        <span class="inbox-date">2 декабря 2026 г.</span><div class="inbox-message-primary"><i class="inbox-message-icon icon-avatar"></i>\
        <div class="inbox-message-content"><p><p>Плановые работы<br />
        Подробнее: <a target="_blank" href="https://lnt.ooo/x?a=1&amp;b=2">https://lnt.ooo/x?a=1&amp;b=2</a> или <a href='tel:79001234567'>79001234567</a></p></p>\
        <span class="inbox-message-time">10:05</span></div></div>\
        <div class="inbox-message-secondary"><div class="inbox-message-content"><p><p>Tom &amp; Jerry &lt;3 &#039;ok&#039; \u{1B}[2J</p></p>\
        <span class="inbox-message-time">09:00</span></div></div>\
        <span class="inbox-date">1 декабря 2026 г.</span><div class="inbox-message-primary"><i class="inbox-message-icon icon-avatar"></i>\
        <div class="inbox-message-content"><p><p>Добро пожаловать</p></p><span class="inbox-message-time">18:30</span></div></div>\
        </div></body></html>
        """

    @Test func messagesComeOutOldestFirstWithTheirDayTimeTextAndLinks() {
        let messages = InboxPage.messages(Self.page)
        #expect(messages.count == 3)
        #expect(messages.map(\.day) == ["1 декабря 2026 г.", "2 декабря 2026 г.", "2 декабря 2026 г."])
        #expect(messages.map(\.time) == ["18:30", "09:00", "10:05"])
        #expect(messages[0].text == "Добро пожаловать")
        #expect(messages[2].text == "Плановые работы\nПодробнее: https://lnt.ooo/x?a=1&b=2 или 79001234567")
        #expect(messages[2].links == ["https://lnt.ooo/x?a=1&b=2"])
        // Entities decoded; a control sequence is kept as text here and escaped where it is printed.
        #expect(messages[1].text == "Tom & Jerry <3 'ok' \u{1B}[2J")
        #expect(messages[1].links.isEmpty)
    }

    @Test func anEmptyOrForeignPageHasNoMessages() {
        #expect(InboxPage.messages("").isEmpty)
        #expect(InboxPage.messages("<html><body>nothing here</body></html>").isEmpty)
        // A message cut off before its time: what came before it stays.
        #expect(InboxPage.messages("<div class=\"inbox-message-content\"><p>half").isEmpty)
    }

    @Test func roommatesExpireOnlyBeforeTheServersForever() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(OperatorRoommate(phone: "79001112233", type: "inner", expire: "3001-01-01 00:00:00").expiry(timeZone: utc) == nil)
        #expect(OperatorRoommate(phone: "79001112233", type: "inner").expiry(timeZone: utc) == nil)
        let date = OperatorRoommate(phone: "79001112233", expire: "2026-12-03 10:00:00").expiry(timeZone: utc)
        #expect(date == Date(timeIntervalSince1970: 1_796_292_000))
    }
}
