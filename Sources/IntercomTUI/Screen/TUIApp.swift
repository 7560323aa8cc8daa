import Foundation
import Synchronization
import IntercomBase
import IntercomAttach

/// The terminal client: one thread owns ncurses and the picture renderers; the intercom's
/// events reach it through an inbox, and keys become `IntercomCommand`s run on the intercom,
/// which is the screen's own engine or the daemon it attached to (`IntercomLink`).
public final class TUIApp: Sendable {
    private let intercom: any IntercomLink
    /// The screen's config: the journal's folder and `[directory]` (the daemon's user's, as the screen's).
    private let config: IntercomConfig
    private let capabilities: TerminalCapabilities
    private let options: TUIOptions
    private let inbox = Inbox()

    public init(link: any IntercomLink, config: IntercomConfig, capabilities: TerminalCapabilities, options: TUIOptions) {
        self.intercom = link
        self.config = config
        self.capabilities = capabilities
        self.options = options
    }

    /// Runs until the user quits, or until the call of `options.call` ends; then returns how that
    /// call ended. The intercom must be started; it is not stopped here. Throws `TUIError`, or
    /// `IntercomError` when the call of `options.call` cannot be placed.
    @discardableResult
    public func run() async throws -> CallEndReason? {
        await intercom.prepare()
        let events = intercom.events()
        let inbox = self.inbox
        let attached = intercom.mode != .ownEngine
        let pump = Task {
            for await event in events { inbox.post(.event(event)) }
            // An attached screen's events end when the daemon stops: say so instead of a still screen.
            if attached, !Task.isCancelled {
                inbox.post(.message("\(RemoteLinkError.detached)", warn: true))
            }
        }
        let outcome: Result<CallEndReason?, any Error>
        do {
            outcome = .success(try await screen())
        } catch {
            outcome = .failure(error)
        }
        // The events' pump is the screen's: it ends with it, awaited.
        pump.cancel()
        await pump.value
        // Awaited, whether the screen opened or not: the streams' decode threads are gone before
        // the caller stops the intercom (what other screens of the daemon still show plays on).
        await intercom.finish()
        return try outcome.get()
    }

    /// The screen itself, from its panels' pictures to its thread's end.
    private func screen() async throws -> CallEndReason? {
        let inbox = self.inbox
        let panels = await intercom.panels()
        // The kiosk's small tiles play the panels' sub streams; snapshots stand in at 1 fps. A
        // subscription is a command like a key's: the engine plays what every face shows at once.
        if options.kiosk { _ = try? await intercom.execute(.watch(intercom.subscriber, panels: panels, fps: 1)) }
        if options.watch?.camera == true {
            // The link plays the camera already (its caller asked for it).
        } else if let watch = options.watch {
            let mode = capabilities.choose(override: options.graphics).mode
            // The stream connects while the screen opens: its size now, from the window's (the
            // screen says it again with every frame, and a resize rescales without reconnecting).
            if let window = capabilities.windowSize {
                let area = WatchView.area(cols: window.cols, rows: window.rows)
                intercom.want(panel: watch.panel, size: ImageRenderer.decodeSize(
                    mode: mode, area: area, cellPixels: capabilities.cellPixels), live: true)
            }
            // The main stream, and snapshots decoded whole, for a picture over the whole window.
            _ = try? await intercom.execute(.watch(intercom.subscriber, panels: [watch.panel], fps: watch.snapshotFPS, whole: true))
        }
        // A new frame of the panel on screen wakes the screen at once (a live stream's own rate);
        // the kiosk's many tiles are drawn at its pace instead.
        let shown = options.watch?.panel
        let waker = options.kiosk ? nil : intercom.addWaker { panel in
            if shown == nil || panel == shown { inbox.wake.wake() }
        }
        defer { if let waker { intercom.removeWaker(waker) } }
        // Placed before the screen opens, so a call that cannot start is one line on a normal terminal.
        var followed: CallID?
        if let call = options.call {
            let data = try await intercom.execute(.call(panel: call.panel))
            followed = data["call"]?.stringValue.map(CallID.init)
        }
        let journalDirectory = JournalLocation.directory(config.journal, environment: capabilities.environment)
        var made = TUIContext(intercom: intercom, inbox: inbox, capabilities: capabilities, options: options,
                                 panels: panels, followed: followed, journalDirectory: journalDirectory)
        made.directory = config.directory.keys.sorted()
        // The first screen lists the doors already (the loop asks again now and then).
        if options.watch == nil, case .array(let doors)? = try? await intercom.execute(.doors) {
            made.doors = doors.compactMap(DoorListing.init(json:))
        }
        let context = made
        // Ctrl-Z goes through the screen's loop, which puts the terminal back first.
        let suspending = SuspendSignal(inbox: inbox)
        defer { suspending.cancel() }
        let result: Result<CallEndReason?, TUIError> = await withCheckedContinuation { done in
            let thread = Thread {
                do {
                    let loop = try TUILoop(context: context)
                    done.resume(returning: .success(loop.run()))
                } catch let error as TUIError {
                    done.resume(returning: .failure(error))
                } catch {
                    done.resume(returning: .failure(.notATerminal))
                }
            }
            thread.name = "intercom.tui"
            thread.start()
        }
        // Commands sent from keys run to their end (an answer is not cut in half by a quit).
        await context.commands.drain()
        return try result.get()
    }

    /// Closes the screen as q does (for a signal); `run` then returns.
    public func stop() { inbox.post(.quit) }
}

/// What the TUI thread gets to work with; all of it is safe to share.
struct TUIContext: Sendable {
    /// The commands the keys sent, still running: the screen awaits them before it returns.
    let commands = TaskOwner("screen commands")
    var intercom: any IntercomLink
    var inbox: Inbox
    var capabilities: TerminalCapabilities
    var options: TUIOptions
    var panels: [String]
    /// The call this screen was opened for (`intercom call`); the screen closes when it ends.
    var followed: CallID?
    /// Where the journal view reads from.
    var journalDirectory: String
    /// `[directory]` names, for the transfer prompt (`t`).
    var directory: [String] = []
    /// The door list as the screen opened (the `doors` command's).
    var doors: [DoorListing] = []

    /// Runs a command on the intercom; its error comes back as a message line.
    func send(_ command: IntercomCommand) {
        let intercom = self.intercom
        let inbox = self.inbox
        if case .answer(let call?, _) = command { inbox.answeringHere(call) }
        commands.start {
            do {
                let data = try await intercom.execute(command)
                if case .mute = command, let muted = data["muted"]?.boolValue {
                    inbox.post(.message(muted ? "microphone muted" : "microphone on", warn: false))
                } else if case .speaker = command, let on = data["speaker"]?.boolValue {
                    inbox.post(.message(on ? "speaker on" : "speaker off", warn: false))
                } else if case .transfer(let call, let target) = command, let call {
                    inbox.post(.transferAsked(call, target: target))
                }
            } catch {
                inbox.post(.message("\(error)", warn: true))
            }
        }
    }
}
