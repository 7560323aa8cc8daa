import Foundation
import IntercomBase

/// Who acted: the face a command came from (`execute(_:as:)`) goes with the events the command
/// causes — the answer, the openings, the hang-up — so every face can say who answered.
extension Intercom {
    /// The face whose command is being carried out. A task-local, bound once by `execute(_:as:)`:
    /// one command reaches the events through several paths (opening a ringing call answers it,
    /// opens, hangs up; an operator's door answers first), and each of them reads it here rather
    /// than every path carrying one more parameter. Tasks the engine starts for its own policies
    /// (auto-answer, guest mode) name their own face below, whatever started them.
    @TaskLocal static var acting: FaceIdentity?

    /// Carries out `command` as `who` asked it (a screen, `ctl`, MQTT, the notification).
    @discardableResult
    public func execute(_ command: IntercomCommand, as who: FaceIdentity?) async throws -> JSONValue {
        try await Self.$acting.withValue(who) { try await execute(command) }
    }

    /// The face of an answer: a policy's own, else the command's.
    func who(answering by: IntercomEvent.AnsweredBy) -> FaceIdentity? {
        switch by {
        case .auto: .auto
        case .guestMode: .guestMode
        case .remote: nil
        case .notification: Self.acting ?? .notification
        case .user: Self.acting
        }
    }

    /// The face of an opening: guest mode's own, else the command's (the trigger's when none said).
    func who(opening trigger: DoorTrigger) -> FaceIdentity? {
        switch trigger {
        case .guestMode: .guestMode
        case .mqtt: Self.acting ?? .mqtt
        case .notification: Self.acting ?? .notification
        default: Self.acting
        }
    }

    /// Ends call `id` (`end`: a hang-up or a decline) as the command's face, which `call_ended`
    /// names; a hang-up that failed names nobody.
    func ending(_ id: CallID, _ end: () async throws -> Void) async throws {
        calls[id]?.endedBy(Self.acting)
        do { try await end() } catch {
            calls[id]?.endedBy(nil)
            throw error
        }
    }
}
