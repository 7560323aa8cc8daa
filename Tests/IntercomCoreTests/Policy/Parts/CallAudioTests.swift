import IntercomBase
@testable import IntercomCore
import Testing

/// The audio part: a toggle says whether it changed anything (an unchanged one publishes no
/// `audio_changed`), the speaker picks the device, and the last call's end unmutes only then.
@Suite struct CallAudioTests {
    static let devices = AudioSettings(playback: "headset", speaker: "loud")

    @Test func aToggleSaysWhetherItChangedAnything() {
        var audio = CallAudio()
        var changed = audio.mute(nil)
        #expect(changed && audio.muted)
        changed = audio.mute(true)
        #expect(!changed && audio.muted, "already muted: no change to publish")
        changed = audio.mute(false)
        #expect(changed && !audio.muted)
        changed = audio.speaker(nil)
        #expect(changed && audio.onSpeaker)
        changed = audio.speaker(true)
        #expect(!changed)
    }

    @Test func theSpeakerTogglePicksTheDevice() {
        var audio = CallAudio()
        #expect(audio.outputDevice(Self.devices) == "headset")
        _ = audio.speaker(true)
        #expect(audio.outputDevice(Self.devices) == "loud")
        #expect(audio.changed(Self.devices) == .audioChanged(muted: false, speaker: true, device: "loud"))
    }

    @Test func theLastCallsEndUnmutesOnlyWhenNoConversationIsLeft() {
        var audio = CallAudio()
        var unmute = audio.unmuteAfterLastCall(inConversation: false)
        #expect(!unmute, "not muted: nothing to turn on")
        _ = audio.mute(true)
        unmute = audio.unmuteAfterLastCall(inConversation: true)
        #expect(!unmute && audio.muted, "a conversation goes on: still muted")
        unmute = audio.unmuteAfterLastCall(inConversation: false)
        #expect(unmute && !audio.muted)
    }
}
