import Testing
@testable import IntercomTUI

/// The desktop notification goes out inside an OSC sequence: a caller's text in its title must
/// not end it early (BEL, ESC \) or carry sequences of its own.
@Suite struct AlertsEscapeTests {
    @Test func notificationTitleIsEscaped() {
        var written: [String] = []
        let alerts = Alerts(bell: false, notify: true, environment: [:])
        alerts.notifyIncoming("sip:x@h \u{07}\u{1B}]0;pwned\u{1B}\\\u{9B}2J", { written.append($0) })
        #expect(written.count == 2)
        for sequence in written {
            // Only our own OSC opener and ST remain: ESC ] at the start, ESC \ at the end.
            let inner = sequence.unicodeScalars.dropFirst(2).dropLast(2)
            #expect(!inner.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(sequence.debugDescription)")
            #expect(sequence.contains("\\u{1B}]0;pwned"), "\(sequence.debugDescription)")
        }
    }
}
