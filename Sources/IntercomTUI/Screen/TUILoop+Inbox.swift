import Foundation
import IntercomBase

/// What reaches the screen through its inbox: the intercom's events, the outcome of its commands
/// (messages, a transfer asked, the door list), a quit from a signal.
extension TUILoop {
    func take(_ item: Inbox.Item) {
        switch item {
        case .event(let event):
            model.apply(event)
            // Attached, every screen sees every answer: one this screen did not ask for was another's.
            if case .callAnswered(let call, .user) = event.kind, context.intercom.mode != .ownEngine,
               !context.inbox.answeredHere(call.id) {
                model.answeredElsewhere(call.id)
            }
            if case .callEnded = event.kind {
                resetPictures()
                if model.journal != nil { model.journal = JournalBrowser.load(directory: context.journalDirectory) }
                loadLastVisitor()
            }
        case .message(let text, let warn):
            model.say(text, warn: warn)
        case .transferAsked(let call, let target):
            model.pendingTransfer = (call, target, Date())
        case .doors(let list):
            model.updateDoors(list)
        case .quit:
            running = false
        }
    }
}
