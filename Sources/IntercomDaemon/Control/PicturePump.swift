import Foundation
import IntercomBase
import IntercomCore
import IntercomImaging
import IntercomPhone
import Synchronization

/// One picture subscription of one connection: at the rate the screen asked for, the newest
/// picture of its source goes into the connection's slot as a JPEG line. A picture is encoded
/// only when the screen took the last one, so a screen that reads slowly (or is stopped) costs
/// the daemon nothing but a look at its slot, and the phone and other screens never wait on it.
/// The line is made once per picture and size (`SharedPictures`) for every screen that asks it;
/// a live frame (decoded at the largest size any screen asked) is scaled down to this screen's.
struct PicturePump: Sendable {
    let request: PictureRequest
    let intercom: Intercom
    let outbox: Outbox
    let shared: SharedPictures

    /// The shared slots this subscription's lines come from: the panel's live frames at its size,
    /// and its snapshots (sent as the panel made them, the same for every size); the call's video whole.
    var slots: (live: String, still: String) {
        switch request.source {
        case .panel: ("\(request.key)@\(request.width)x\(request.height)", "\(request.key)@snapshot")
        case .video: (request.key, request.key)
        }
    }

    /// JPEG quality of re-encoded pictures (live frames, call video): DECISIONS "Screens attach".
    static let quality = 75

    func run() async {
        let key = request.key
        let video = await intercom.video
        let pause = Duration.milliseconds(max(33, Int(1000 / request.fps)))
        // A new picture of the source wakes the pump at once: a ring's first picture is not held
        // back by the pacing, which only keeps pictures at most `fps` apart.
        let news = NewPicture()
        let waker: UUID?, token: UInt64?
        switch request.source {
        case .panel(let panel):
            waker = intercom.peephole.addWaker { if $0 == panel { news.fire() } }
            token = nil
        case .video:
            waker = nil
            token = video?.subscribe { _ in news.fire() }
        }
        let slots = self.slots
        shared.use(slots.live)
        shared.use(slots.still)
        defer {
            shared.release(slots.live)
            shared.release(slots.still)
            if let waker { intercom.peephole.removeWaker(waker) }
            if let token { video?.unsubscribe(token) }
        }
        var sent: String?
        while !Task.isCancelled {
            if outbox.slotIsFree(key), let (id, line) = next(video: video, unless: sent) {
                outbox.offer(key: key, line: line)
                sent = id
                try? await Task.sleep(for: pause)
            } else {
                // Nothing new, or the screen has not taken the last one: the next picture, or a look again.
                await news.wait(atMost: pause)
            }
        }
    }

    /// The source's newest picture unless it is `sent`: an id that changes with it, and its line.
    private func next(video: VideoFrameHub?, unless sent: String?) -> (String, String)? {
        switch request.source {
        case .panel(let panel):
            guard let frame = intercom.peephole.latest(panel: panel) else { return nil }
            // The panel's troubles go with its picture, as its own screen shows them: a new one
            // (or one cleared) sends the newest picture again with it.
            let note = intercom.peephole.streamNote(panel: panel), problem = intercom.peephole.problem(panel: panel)
            let id = "\(frame.sequence)-\(frame.fetchedAt.timeIntervalSince1970)-\(note ?? "")-\(problem ?? "")"
            guard id != sent else { return nil }
            // A snapshot goes as the panel sent it; a live frame is scaled to the size asked for.
            let snapshot = frame.kind == .snapshot
            let line = shared.line(snapshot ? slots.still : slots.live, id: id) { () -> String? in
                let box = PixelSize(width: request.width, height: request.height)
                guard let jpeg = snapshot ? frame.jpeg ?? (try? JPEG.encode(frame.image, quality: Self.quality))
                        : (try? JPEG.encode(frame.image.shrunk(toFit: box), quality: Self.quality)) else { return nil }
                return PictureLine(key: request.key, sequence: frame.sequence, kind: frame.kind.rawValue,
                                   call: frame.call?.rawValue, note: note, problem: problem, jpeg: jpeg).encoded
            }
            return line.map { (id, $0) }
        case .video:
            guard let frame = video?.latest else { return nil }
            let id = "v\(frame.sequence)"
            guard id != sent else { return nil }
            let line = shared.line(slots.live, id: id) { () -> String? in
                guard let image = RGBImage(width: frame.width, height: frame.height, pixels: frame.rgb()),
                      let jpeg = try? JPEG.encode(image, quality: Self.quality) else { return nil }
                return PictureLine(key: request.key, sequence: Int(frame.sequence), kind: "video",
                                   call: frame.call?.rawValue, jpeg: jpeg).encoded
            }
            return line.map { (id, $0) }
        }
    }
}

/// "A new picture came": fired from the hub's waker (any thread), awaited by one pump.
final class NewPicture: Sendable {
    private let state = Mutex<(fired: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))

    func fire() {
        let waiting = state.withLock { s -> CheckedContinuation<Void, Never>? in
            defer { s = (s.waiting == nil, nil) }
            return s.waiting
        }
        waiting?.resume()
    }

    /// Returns at the next `fire` (at once if one came since the last wait), after `limit`, or on cancel.
    func wait(atMost limit: Duration) async {
        // Only a timer that ran out fires: a cancelled one (the wait ended by a picture) firing
        // too would leave the flag set for the next wait, which then returns at once — a pump
        // spinning a core between pictures.
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            fire()
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.fired || Task.isCancelled {
                        s.fired = false
                        return true
                    }
                    s.waiting = resume
                    return false
                }
                if now { resume.resume() }
            }
        } onCancel: {
            fire()
        }
    }
}
