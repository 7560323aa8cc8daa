import Foundation
import IntercomBase
import IntercomTerminal

/// What reaches the screen: the inbox's items (events, messages, transfers asked, the door list, quit) and the call
/// screen's and kiosk's keys (the prompts' and the journal's are in `TUILoop+Prompts`, the watch
/// view's in `TUILoop+Watch`).
extension TUILoop {
    func take(_ item: Inbox.Item) {
        switch item {
        case .event(let event):
            model.apply(event)
            // Attached, every screen sees every answer: one this screen did not ask for was another's.
            if case .callAnswered(let call, let by) = event.kind, by == .user || by == .notification, context.intercom.mode != .ownEngine,
               !context.inbox.answeredHere(call.id) {
                model.answeredElsewhere(call.id, by: event.who)
            }
            if case .callEnded = event.kind {
                resetPictures()
                if model.journal != nil { model.journal = JournalBrowser.load(directory: context.journalDirectory) }
                readJournalFacts()
            }
        case .message(let text, let warn):
            model.say(text, warn: warn)
        case .transferAsked(let call, let target):
            model.pendingTransfer = (call, target, Date())
        case .doors(let list):
            model.updateDoors(list)
        case .quit:
            running = false
        case .suspend:
            suspend()
        }
    }

    func handle(_ key: Int32) {
        // A failure stays until a key is pressed: this one (which goes on to do what it does).
        model.keyPressed()
        if model.doorPrompt != nil {
            typeDoorName(key)
            return
        }
        if model.transferPrompt != nil {
            typeTransferTarget(key)
            return
        }
        if model.kiosk.typing != nil {
            typeFilter(key)
            return
        }
        if model.journal != nil, model.selectedCall == nil, browseJournal(key) { return }
        let inCall = model.selectedCall?.stage == .active
        guard let action = KeyAction.of(key: key, inCall: inCall, ringing: !model.ringing.isEmpty,
                                        quitAsked: model.quitAsked, kiosk: context.options.kiosk,
                                        dialing: model.selectedCall?.stage == .dialing) else { return }
        switch action {
        case .command(.open(nil, let door, let by)):
            switch model.openChoice(door: door) {
            case .open(let panel): context.send(.open(panel: panel, door: door, by: by))
            case .ask: model.doorPrompt = (door, "")
            case .pickFirst(let how): model.say(how)
            }
        case .command(.dtmf(nil, let digits)):
            guard let call = model.selectedCall else { return }
            context.send(.dtmf(call.id, digits: digits))
            model.say("DTMF \(digits) sent to \(call.title)")
        case .command(let command):
            guard let command = targeted(command) else { return }
            context.send(command)
        case .nextCall:
            // Without a call, Tab chooses the door `o` opens.
            if model.calls.isEmpty { model.chooseNextDoor() } else { model.selectNext() }
            resetPictures()
        case .help:
            model.showHelp.toggle()
            resetPictures()
        case .journal:
            guard model.selectedCall == nil else {
                model.say("the journal opens when no call is on the screen")
                return
            }
            model.journal = model.journal == nil ? JournalBrowser.load(directory: context.journalDirectory) : nil
            // The kiosk's tiles give way to the journal: their streams rest meanwhile.
            if context.options.kiosk { quietTiles() }
            resetPictures()
        case .quit:
            if model.calls.isEmpty && !context.options.kiosk {
                running = false
            } else {
                model.quitAsked = true
            }
        case .confirmQuit(let yes):
            model.quitAsked = false
            if yes { running = false }
        case .redraw:
            resetPictures()
        case .selectDoor(let index):
            model.selectDoor(index)
        case .transfer, .consult:
            if action == .consult, let consult = model.consultation, consult.call == model.selectedCall?.id {
                guard consult.answered else { return model.say("\(consult.target) has not answered yet (Esc: back to the call)") }
                context.send(.attendedTransfer(consult.call, step: .complete))
                return
            }
            guard model.consultation == nil else { return model.say("a transfer is under way: T completes it, Esc cancels it") }
            model.transferPrompt = ""
            model.transferCall = model.selectedCall?.id
            model.transferAttended = action == .consult
        case .kiosk(let key):
            model.kiosk.apply(key)
            resetPictures()
        case .flatSettings(let nextMinutes):
            showFlatSettings(nextMinutes: nextMinutes)
        }
    }

    /// Commands without a call id act on the call the screen shows; answer and decline on the
    /// marked tile's when a digit marked one (nil: it has no ringing call, and the screen said so).
    private func targeted(_ command: IntercomCommand) -> IntercomCommand? {
        let id = model.selectedCall?.id
        switch command {
        case .answer(nil, _), .decline(nil):
            guard case .call(let ringing) = model.ringTarget else {
                if case .none(let why) = model.ringTarget { model.say(why, warn: true) }
                return nil
            }
            if case .answer(_, let by) = command { return .answer(ringing, by: by) }
            return .decline(ringing)
        case .hangup(nil): return .hangup(id)
        default: return command
        }
    }
}
