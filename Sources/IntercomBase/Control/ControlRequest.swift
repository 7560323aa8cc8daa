import Foundation

/// One request line of the control socket, mapped to the one command model. This is the only
/// place that knows the wire spelling of requests; the server and `intercom ctl` share it.
public struct ControlRequest: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case command(IntercomCommand)
        /// Stream a `state` object, then every event (of one call when `call` is set).
        case events(call: CallID?)
        /// A screen attaches: named in `status` (`screens`) for as long as the connection lasts;
        /// the stream is then as for `events` (a `state` object, then every event).
        case attach(screen: String)
        /// A screen's picture subscription (see `PictureRequest`); frames come as `frame` lines.
        case picture(PictureRequest)

        /// `intercom share --until`: a command like the others (`IntercomCommand.shareExpiry`).
        public static func shareExpiry(_ change: ShareExpiry.Change) -> Action { .command(.shareExpiry(change)) }
    }

    /// Echoed in the reply as sent (any JSON value; null when absent).
    public var id: JSONValue
    public var action: Action

    public init(id: JSONValue = .null, action: Action) {
        self.id = id
        self.action = action
    }

    /// Every request name, in the order the reference lists them.
    public static let commands = ControlCommandName.allCases.map(\.rawValue)

    /// A refused request: the reply still carries the id when one could be read.
    public struct Failure: Error, Sendable, Equatable {
        public var id: JSONValue
        public var message: String
    }

    /// Parses one line; a failure says in one line what was wrong.
    public static func parse(_ line: String) -> Result<ControlRequest, Failure> {
        guard let value = JSONValue.parse(line) else {
            return .failure(Failure(id: .null, message: "malformed request: not JSON; send one JSON object per line"))
        }
        guard case .object = value else {
            return .failure(Failure(id: .null, message: "malformed request: expected a JSON object with \"command\""))
        }
        let id = value["id"] ?? .null
        func fail(_ message: String) -> Result<ControlRequest, Failure> { .failure(Failure(id: id, message: message)) }
        guard let name = value["command"]?.stringValue else {
            return fail("malformed request: \"command\" (a string) is missing")
        }
        guard let command = ControlCommandName(rawValue: name) else {
            return fail("unknown command '\(name)'; known: \(commands.joined(separator: ", "))")
        }
        var call: CallID?
        if let raw = value["call"], raw != .null {
            guard let text = raw.stringValue, !text.isEmpty else { return fail("\"call\" must be a call id string such as \"c1\"") }
            call = CallID(text)
        }
        func flag(_ key: String) -> Result<Bool?, Failure> {
            guard let raw = value[key], raw != .null else { return .success(nil) }
            guard let b = raw.boolValue else { return .failure(Failure(id: id, message: "\"\(key)\" must be true or false")) }
            return .success(b)
        }
        let action: Action
        switch command {
        case .status: action = .command(.status)
        case .answer: action = .command(.answer(call))
        case .decline: action = .command(.decline(call))
        case .hangup: action = .command(.hangup(call))
        case .dtmf:
            guard let digits = value["digits"]?.stringValue, !digits.isEmpty else {
                return fail("dtmf needs \"digits\", e.g. \"1\"")
            }
            guard digits.allSatisfy({ "0123456789*#ABCDabcd".contains($0) }) else {
                return fail("dtmf digits may be 0-9, *, # and A-D, not '\(digits)'")
            }
            action = .command(.dtmf(call, digits: digits))
        case .open:
            var door = Door.main
            if let raw = value["door"], raw != .null {
                let text: String? = raw.stringValue ?? { if case .integer(let n) = raw { String(n) } else { nil } }()
                guard let text, let parsed = Door(text) else {
                    return fail("\"door\" takes main, alt, light or an output number")
                }
                door = parsed
            }
            var panel: String?
            if let raw = value["panel"], raw != .null {
                guard let text = raw.stringValue else {
                    return fail("\"panel\" must be a panel name or a door id of 'intercom doors' (e.g. \"home:1:0\")")
                }
                panel = text
            }
            // A client may say it is a hook (its opening is then automatic: rate-limited, confirmed
            // calls only) or an attached screen's key (a person, as ctl is); it cannot claim guest mode.
            var trigger = DoorTrigger.ctl
            if let raw = value["by"], raw != .null {
                guard let text = raw.stringValue, let claimed = DoorTrigger(rawValue: text),
                      [.ctl, .hook, .key].contains(claimed) else {
                    return fail("\"by\" may be \"ctl\", \"hook\" or \"key\"")
                }
                trigger = claimed
            }
            action = .command(.open(panel: panel, door: door, by: trigger))
        case .mute:
            switch flag("on") {
            case .success(let on): action = .command(.mute(on))
            case .failure(let f): return .failure(f)
            }
        case .speaker:
            switch flag("on") {
            case .success(let on): action = .command(.speaker(on))
            case .failure(let f): return .failure(f)
            }
        case .call:
            var panel: String?
            if let raw = value["panel"], raw != .null {
                guard let text = raw.stringValue else { return fail("\"panel\" must be a panel name") }
                panel = text
            }
            action = .command(.call(panel: panel))
        case .transfer:
            let steps = ["consult", "complete", "cancel"].filter { value[$0]?.boolValue == true }
            guard steps.count <= 1 else { return fail("transfer takes one of \"consult\", \"complete\" and \"cancel\", not several") }
            if steps.first == "complete" || steps.first == "cancel" {
                action = .command(.attendedTransfer(call, step: steps.first == "complete" ? .complete : .cancel))
                break
            }
            guard let target = value["target"]?.stringValue, !target.isEmpty else {
                return fail("transfer needs \"target\": a [directory] name or a sip: URI, e.g. \"flat12\"")
            }
            action = .command(steps.isEmpty ? .transfer(call, target: target) : .attendedTransfer(call, step: .consult(target: target)))
        case .calls, .guest:
            var panel: String?
            if let raw = value["panel"], raw != .null {
                guard let text = raw.stringValue else { return fail("\"panel\" must be a panel name") }
                panel = text
            }
            if command == .calls {
                guard let on = value["on"]?.boolValue else { return fail("calls needs \"on\": true or false") }
                action = .command(.setCalls(panel: panel, on: on))
            } else {
                var until: Date?
                if let raw = value["until"], raw != .null {
                    guard let text = raw.stringValue, let date = try? GuestTimeParser.parse(text, timeZone: .current) else {
                        return fail("\"until\" must be an RFC 3339 time such as \"2026-11-29T18:00:00+03:00\", or null for off")
                    }
                    until = date
                }
                action = .command(.setGuest(panel: panel, until: until))
            }
        case .handled, .callback:
            guard case .integer(let entry) = value["entry"] ?? .null, entry > 0 else {
                return fail("\(name) needs \"entry\": a missed call's id from 'intercom log --unhandled --json', e.g. 42")
            }
            var who = "ctl"
            if let raw = value["by"], raw != .null {
                guard let text = raw.stringValue, !text.trimmingCharacters(in: .whitespaces).isEmpty, text.count <= 100 else {
                    return fail("\"by\" must name who handled the call (text, at most 100 characters)")
                }
                who = text
            }
            action = .command(command == .handled ? .handled(entry: Int64(entry), by: who) : .callBack(entry: Int64(entry), by: who))
        case .doors: action = .command(.doors)
        case .site: action = .command(.siteDesks)
        case .duty:
            guard let on = value["on"]?.boolValue else { return fail("duty needs \"on\": true or false") }
            var name: String?
            if let raw = value["operator"], raw != .null {
                guard let text = raw.stringValue, !text.trimmingCharacters(in: .whitespaces).isEmpty, text.count <= 100 else {
                    return fail("\"operator\" must name who is on duty (text, at most 100 characters)")
                }
                name = text
            }
            action = .command(.duty(on: on, operator: name))
        case .journal:
            switch JournalRequestFields.parse(value) {
            case .success(let query): action = .command(.journal(query))
            case .failure(let message): return fail(message.text)
            }
        case .events: action = .events(call: call)
        case .attach:
            let screen = value["screen"]?.stringValue ?? "screen"
            guard !screen.isEmpty, screen.count <= 64, screen.allSatisfy({ $0.isLetter || $0.isNumber || "-_ .".contains($0) }) else {
                return fail("\"screen\" names the screen in a few letters, e.g. \"tui\"")
            }
            action = .attach(screen: screen)
        case .watchPanels:
            guard case .array(let list)? = value["panels"], list.count <= 1024,
                  let names = Optional(list.compactMap(\.stringValue)), names.count == list.count else {
                return fail("watch_panels needs \"panels\": a list of panel names ([] stops)")
            }
            guard let fps = PictureRequest.rate(value["fps"], otherwise: 1) else { return fail(PictureRequest.rateRule) }
            switch flag("whole") {
            // The wire names no subscriber: the connection that sent it is one (`Subscriber.sender`).
            case .success(let whole): action = .command(.watch(.sender, panels: names, fps: fps, whole: whole ?? false))
            case .failure(let f): return .failure(f)
            }
        case .watchCamera:
            var camera: String?
            if let raw = value["camera"], raw != .null {
                guard let text = raw.stringValue, !text.isEmpty, text.count <= 256 else {
                    return fail("watch_camera needs \"camera\": an operator camera id such as \"home:cam:1\" (null stops)")
                }
                camera = text
            }
            var at: Date?
            if let raw = value["at"], raw != .null {
                guard let text = raw.stringValue, let date = RFC3339.date(text) else {
                    return fail("\"at\" must be an RFC 3339 time such as \"2026-11-29T18:00:00+03:00\"")
                }
                at = date
            }
            action = .command(.watchCamera(.sender, camera: camera, at: at))
        case .unwatch: action = .command(.unwatch(.sender))
        case .shareExpiry:
            guard let change = ShareExpiry.Change(json: value) else {
                return fail("share_expiry needs \"operator\", \"flat\", \"phone\" (11 digits) and \"until\" (RFC 3339, or null to forget)")
            }
            action = .shareExpiry(change)
        case .settings:
            switch FlatSettingsRequest.parse(value) {
            case .success(let request): action = .command(.flatSettings(request))
            case .failure(let invalid): return fail(invalid.message)
            }
        case .picture:
            switch PictureRequest.parse(value) {
            case .success(let picture): action = .picture(picture)
            case .failure(let invalid): return fail(invalid.message)
            }
        }
        return .success(ControlRequest(id: id, action: action))
    }

    /// The request line `intercom ctl` sends.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = []
        func named(_ name: ControlCommandName) -> (String, JSONValue) { ("command", .string(name.rawValue)) }
        func callField(_ id: CallID?) { if let id { fields.append(("call", .string(id.rawValue))) } }
        switch action {
        case .events(let call):
            fields.append(named(.events))
            callField(call)
        case .attach(let screen):
            fields += [named(.attach), ("screen", .string(screen))]
        case .picture(let picture):
            fields.append(named(.picture))
            fields += picture.fields
        case .command(let command):
            switch command {
            case .status: fields.append(named(.status))
            case .doors: fields.append(named(.doors))
            case .siteDesks: fields.append(named(.site))
            case .duty(let on, let name):
                fields += [named(.duty), ("on", .bool(on))]
                if let name { fields.append(("operator", .string(name))) }
            case .journal(let query):
                fields.append(named(.journal))
                fields += JournalRequestFields.fields(query)
            case .answer(let c, _): fields.append(named(.answer)); callField(c)
            case .decline(let c): fields.append(named(.decline)); callField(c)
            case .hangup(let c): fields.append(named(.hangup)); callField(c)
            case .dtmf(let c, let digits):
                fields.append(named(.dtmf)); callField(c)
                fields.append(("digits", .string(digits)))
            case .open(let panel, let door, let by):
                fields.append(named(.open))
                if let panel { fields.append(("panel", .string(panel))) }
                fields.append(("door", .string(door.description)))
                if by != .ctl { fields.append(("by", .string(by.rawValue))) }
            case .mute(let on):
                fields.append(named(.mute))
                if let on { fields.append(("on", .bool(on))) }
            case .speaker(let on):
                fields.append(named(.speaker))
                if let on { fields.append(("on", .bool(on))) }
            case .call(let panel):
                fields.append(named(.call))
                if let panel { fields.append(("panel", .string(panel))) }
            case .transfer(let c, let target):
                fields.append(named(.transfer)); callField(c)
                fields.append(("target", .string(target)))
            case .attendedTransfer(let c, let step):
                fields.append(named(.transfer)); callField(c)
                switch step {
                case .consult(let target): fields += [("target", .string(target)), ("consult", .bool(true))]
                case .complete: fields.append(("complete", .bool(true)))
                case .cancel: fields.append(("cancel", .bool(true)))
                }
            case .setCalls(let panel, let on):
                fields.append(named(.calls))
                if let panel { fields.append(("panel", .string(panel))) }
                fields.append(("on", .bool(on)))
            case .setGuest(let panel, let until):
                fields.append(named(.guest))
                if let panel { fields.append(("panel", .string(panel))) }
                fields.append(("until", until.map { .string(RFC3339.string($0)) } ?? .null))
            // The subscriber stays out: on the socket the connection is it.
            case .watch(_, let panels, let fps, let whole):
                fields += [named(.watchPanels), ("panels", .array(panels.map { .string($0) })), ("fps", .number(fps))]
                if whole { fields.append(("whole", .bool(true))) }
            case .watchCamera(_, let camera, let at):
                fields += [named(.watchCamera), ("camera", camera.map { .string($0) } ?? .null)]
                if let at { fields.append(("at", .string(RFC3339.string(at)))) }
            // On the socket a want is the `picture` request, which sends the panel's frames too.
            case .picture(_, let panel, let want):
                fields.append(named(.picture))
                fields += (want.map { PictureRequest(source: .panel(panel), width: $0.width, height: $0.height, fps: 5, live: $0.live) }
                           ?? .stop(.panel(panel))).fields
            case .unwatch: fields.append(named(.unwatch))
            case .shareExpiry(let change): fields = [named(.shareExpiry)] + change.fields
            case .flatSettings(let request): fields = [named(.settings)] + request.fields
            // In-process only: the server refuses the name as unknown, which is what it is there.
            case .reload: fields.append(("command", .string("reload")))
            case .handled(let entry, let by), .callBack(let entry, let by):
                if case .handled = command { fields.append(named(.handled)) } else { fields.append(named(.callback)) }
                fields.append(("entry", .integer(Int(entry))))
                fields.append(("by", .string(by)))
            }
        }
        fields.insert(("id", id), at: 1)
        return .object(fields)
    }
}
