import Foundation
import IntercomCore
@testable import IntercomTUI
import Testing
import IntercomTestSupport
import IntercomBase

/// The info column's "mic muted / speaker on" comes from `audio_changed`, not from the key pressed.
@Suite struct ScreenModelAudioTests {
    @Test func audioChangedSetsMutedAndSpeaker() {
        var model = ScreenModel()
        #expect(!model.muted && !model.speaker)
        model.apply(IntercomEvent(.audioChanged(muted: true, speaker: false, device: "default")))
        #expect(model.muted && !model.speaker)
        model.apply(IntercomEvent(.audioChanged(muted: true, speaker: true, device: "hw:1")))
        #expect(model.muted && model.speaker)
        model.apply(IntercomEvent(.audioChanged(muted: false, speaker: false, device: "default")))
        #expect(!model.muted && !model.speaker)
    }
}
