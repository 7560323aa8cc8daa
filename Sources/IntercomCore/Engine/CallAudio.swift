import Foundation
import IntercomBase

/// The audio part: the microphone's mute and the speaker toggle, as `mute`, `speaker` and the
/// calls' ends change them. The engine gives each change to the phone and publishes
/// `audio_changed` (`changed`) once the phone took it, so the event tells what is in force.
struct CallAudio: Equatable {
    private(set) var muted = false
    private(set) var onSpeaker = false

    /// `mute` sets the microphone (toggles it when nil); true when that changed it.
    mutating func mute(_ wanted: Bool?) -> Bool {
        let before = muted
        muted = wanted ?? !muted
        return muted != before
    }

    /// `speaker` sets the speaker toggle (toggles it when nil); true when that changed it.
    mutating func speaker(_ wanted: Bool?) -> Bool {
        let before = onSpeaker
        onSpeaker = wanted ?? !onSpeaker
        return onSpeaker != before
    }

    /// A call ended and no conversation is left: the microphone muted in it (or by `mute` with
    /// no call) is on again, so a mute never carries into the next visitor's call unseen. True
    /// when the phone's microphone must be turned on.
    mutating func unmuteAfterLastCall(inConversation: Bool) -> Bool {
        guard muted, !inConversation else { return false }
        muted = false
        return true
    }

    /// Where call audio plays: the speaker toggle picks `[audio] speaker` or `playback`.
    func outputDevice(_ audio: AudioSettings) -> String { onSpeaker ? audio.speaker : audio.playback }

    /// `audio_changed` as the part now is.
    func changed(_ audio: AudioSettings) -> IntercomEvent.Kind {
        .audioChanged(muted: muted, speaker: onSpeaker, device: outputDevice(audio))
    }
}
