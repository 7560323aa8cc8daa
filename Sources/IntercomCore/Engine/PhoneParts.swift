import Foundation
import IntercomBase
import IntercomPhone

/// The phone's settings, with the caller gate they give the phone thread: one gate, which
/// `reload` renews and the engine's caller recognition reads.
struct PhoneSetup: Sendable {
    let settings: PhoneSettings
    let callerGate: CallerGate

    /// The settings' own gate (a test's), else the one `makeGate` builds from the config.
    init(_ settings: PhoneSettings, makeGate: () -> CallerGate) {
        var settings = settings
        let gate = settings.callerGate ?? makeGate()
        settings.callerGate = gate
        self.settings = settings
        self.callerGate = gate
    }
}

/// What `Intercom.start` got from the phone: the phone (nil again once stopped), where it
/// listens, and the pump of its events — not among the engine's tasks: it must drain the
/// phone's last events (the calls' ends) after `stop`.
struct StartedPhone {
    var phone: (any PhoneService)?
    private(set) var listening: [ListenAddress] = []
    private(set) var eventPump: Task<Void, Never>?

    init() {}

    init(_ phone: any PhoneService, pump: Task<Void, Never>) {
        self.phone = phone
        listening = phone.listening
        eventPump = pump
    }
}
