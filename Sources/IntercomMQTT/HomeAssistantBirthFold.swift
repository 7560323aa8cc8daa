/// When Home Assistant's births (`homeassistant/status` = online) become republishes: every client hears
/// the same birth, so each waits a short random pause before republishing, and any number of births fold
/// into one republish. A republish covers every birth heard before it starts publishing (it publishes the
/// state as it is then), so births during its pause need nothing more; only a birth heard while it
/// publishes asks for one more round. At most one round runs and one waits.
///
/// The order alone decides, so the policy is this value; `MQTTBridge` owns the task and the pause.
package struct HomeAssistantBirthFold: Sendable, Equatable {
    private var running = false
    private var pending = false

    package init() {}

    /// A birth: true when a round should start now (none runs); false when it folds into the one that
    /// runs (before its publishing: nothing more to do; during it: one more round).
    package mutating func born() -> Bool {
        guard !running else {
            pending = true
            return false
        }
        running = true
        return true
    }

    /// The round's pause is over and it publishes now: what was heard so far is covered.
    package mutating func publishing() {
        pending = false
    }

    /// The round published: true when a birth came while it did and another round runs.
    package mutating func published() -> Bool {
        if pending { return true }
        running = false
        return false
    }

    /// The round was cancelled (the bridge stops): nothing runs or waits.
    package mutating func cancelled() {
        self = HomeAssistantBirthFold()
    }
}
