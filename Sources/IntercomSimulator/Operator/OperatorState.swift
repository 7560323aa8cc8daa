import Foundation
import IntercomBase

/// Everything the simulated operator remembers, behind one lock in `OperatorService`.
struct OperatorState {
    struct PendingPIN {
        var pin: String
        var expires: Date
    }

    struct Attempts {
        var count: Int
        var expires: Date
    }

    /// One logged-in device of one phone.
    struct Device {
        var phone: String
        var token: String
        /// Authorised requests left before the token is revoked (`revokeAfter`); nil = unlimited.
        var remaining: Int?
    }

    /// Another subscriber linked to the flat (`addSubscriber`); the server keeps no expiry.
    struct Roommate {
        var phone: String
        var type: String
    }

    /// A message the server sent a subscriber (its inbox; "New address" for a guest).
    struct Message {
        var phone: String
        var text: String
        var id = 0
        var date = Date()
        var read = false
    }

    /// The flat's settings, as `address/intercom` reads and writes them (all strings).
    struct FlatSettings {
        var doorCode = "12345"
        var cms = true
        var autoOpen = "1970-01-01 00:00:00"
        var whiteRabbit = "0"
        /// Who may read the flat's event log (the flat's `plog` column, backends/plog's `ACCESS_*`):
        /// the owner's `disablePlog`/`hiddenPlog` both write it.
        var plog = PlogAccess.all
    }

    /// `plog::ACCESS_DENIED`, `ACCESS_ALL`, `ACCESS_OWNER_ONLY` (`ACCESS_RESTRICTED_BY_ADMIN` is an
    /// admin's, never a subscriber's to set).
    enum PlogAccess {
        case denied, all, ownerOnly
    }

    struct LogEntry {
        let date: Date
        let uuid: String
        let event: String
        let door: OperatorFixture.Door
        let detail: [(String, JSONValue)]
        /// Whether the entry has a picture (`plog::PREVIEW_NONE` when not): `frs/like` refuses one without.
        var hasPicture = true
        /// The entrance (and its camera) the panel reported it from; nil: the house's first.
        var entrance: OperatorFixture.Entrance? = nil
    }

    /// By phone; a PIN lives 60 s.
    var pins: [String: PendingPIN] = [:]
    /// Confirmation attempts by phone, counted for an hour.
    var attempts: [String: Attempts] = [:]
    /// By device key ("*" + deviceToken, or one made from the headers, or "default").
    var devices: [String: Device] = [:]
    var settings = FlatSettings()
    /// `VoIP` is per device and flat; devices not listed have it on.
    var voipOff: Set<String> = []
    var roommates: [Roommate] = []
    var messages: [Message] = []
    /// The last message id handed out (`msgId`s count up, as the inbox table's do).
    var lastMessageId = 0
    var log: [LogEntry] = []
    /// When `address/plog` first answered each entry (by uuid).
    var firstServed: [String: Date] = [:]
    /// The flat's faces (`frs/like`): the face's id and the log entry it was registered from.
    var faces: [(id: Int, uuid: String)] = []
    /// The flats' licence plates (`lprs/*`; the flat's `cars`), by flat id, in the order added.
    var plates: [String: [String]] = [:]
    /// Requests per API method ("address/openDoor"), and per answer status ("status:401").
    var counts: [String: Int] = [:]

    /// Puts a message in `phone`'s inbox, unread.
    mutating func send(_ text: String, to phone: String, at date: Date = Date()) {
        lastMessageId += 1
        messages.append(Message(phone: phone, text: text, id: lastMessageId, date: date))
    }

    /// The device that holds `token`, if any.
    func deviceKey(for token: String) -> String? {
        devices.first { $0.value.token == token }?.key
    }

    /// Drops PINs and attempt counters whose time is up.
    mutating func expire(now: Date) {
        pins = pins.filter { $0.value.expires > now }
        attempts = attempts.filter { $0.value.expires > now }
    }
}
