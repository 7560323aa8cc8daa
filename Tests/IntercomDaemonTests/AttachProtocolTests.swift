import Foundation
@testable import IntercomDaemon
import IntercomCore
import IntercomImaging
import IntercomPhone
import IntercomPhoneTestSupport
import Testing
import IntercomBase
@testable import IntercomAttach

/// The wire of a screen's attach, without a socket: the new requests, the frame lines, events
/// read back from their JSON, and the outbox's newest-frame slots.
@Suite(.removesTestFolders) struct AttachProtocolTests {
    @Test func attachAndPictureRequestsRoundTrip() throws {
        let requests: [ControlRequest] = [
            ControlRequest(id: .integer(1), action: .attach(screen: "tui")),
            ControlRequest(id: .null, action: .picture(PictureRequest(source: .panel("home"), width: 640, height: 360, fps: 12, live: true))),
            ControlRequest(id: .null, action: .picture(PictureRequest(source: .video, width: 1, height: 1, fps: 15))),
            ControlRequest(id: .null, action: .picture(.stop(.panel("home")))),
            ControlRequest(id: .integer(2), action: .command(.watch(.sender, panels: ["home", "yard"], fps: 1))),
            ControlRequest(id: .integer(3), action: .command(.watch(.sender, panels: [], fps: 2.5))),
            ControlRequest(id: .integer(4), action: .command(.watch(.sender, panels: ["home"], fps: 2, whole: true))),
            ControlRequest(id: .integer(5), action: .command(.watchCamera(.sender, camera: "home:cam:1"))),
            ControlRequest(id: .integer(6), action: .command(.watchCamera(.sender, camera: "home:cam:1", at: Date(timeIntervalSince1970: 1_796_000_000)))),
            ControlRequest(id: .integer(7), action: .command(.watchCamera(.sender, camera: nil))),
            ControlRequest(id: .integer(8), action: .command(.unwatch(.sender))),
        ]
        for request in requests {
            #expect(try ControlRequest.parse(request.json.encoded).get() == request)
        }
        #expect(["attach", "picture", "watch_panels", "watch_camera", "unwatch"].allSatisfy(ControlRequest.commands.contains))
        // The wire names no subscriber: whoever a command names, the line says nobody, and the
        // daemon's connection is the subscriber of what it reads.
        let named = ControlRequest(id: .integer(9), action: .command(.watch(Subscriber("screen 1"), panels: ["home"], fps: 1)))
        #expect(named.json["command"] == .string("watch_panels") && !named.json.encoded.contains("screen 1"))
        #expect(try ControlRequest.parse(named.json.encoded).get().action == .command(.watch(.sender, panels: ["home"], fps: 1)))
        #expect(IntercomCommand.unwatch(.sender).subscribed(as: Subscriber("c")) == .unwatch(Subscriber("c")))
        #expect(IntercomCommand.status.subscribed(as: Subscriber("c")) == .status)
        // On the wire a picture want is the `picture` request (which sends the frames too), its subscriber left out.
        let want = ControlRequest(id: .integer(10), action: .command(.picture(Subscriber("screen 1"), panel: "home",
                                                                             want: PictureWant(width: 320, height: 180, live: false))))
        #expect(!want.json.encoded.contains("screen 1"))
        #expect(try ControlRequest.parse(want.json.encoded).get().action
                == .picture(PictureRequest(source: .panel("home"), width: 320, height: 180, fps: 5, live: false)))
        let stop = ControlRequest(action: .command(.picture(.sender, panel: "home", want: nil)))
        #expect(try ControlRequest.parse(stop.json.encoded).get().action == .picture(.stop(.panel("home"))))
    }

    @Test(arguments: [
        (#"{"command":"picture"}"#, "picture needs \"panel\""),
        (#"{"command":"picture","panel":"home"}"#, "picture needs \"width\""),
        (#"{"command":"picture","panel":"home","width":10,"height":0}"#, "picture needs \"width\""),
        (#"{"command":"picture","panel":"home","width":99999,"height":10}"#, "picture needs \"width\""),
        (#"{"command":"picture","panel":"home","width":10,"height":10,"fps":100}"#, "\"fps\" must be"),
        (#"{"command":"picture","panel":"home","width":10,"height":10,"live":"yes"}"#, "\"live\" must be"),
        (#"{"command":"attach","screen":"a\nb"}"#, "\"screen\" names"),
        (#"{"command":"watch_panels","panels":"home"}"#, "watch_panels needs"),
        (#"{"command":"watch_panels","panels":[1]}"#, "watch_panels needs"),
        (#"{"command":"watch_panels","panels":[],"fps":0}"#, "\"fps\" must be"),
        (#"{"command":"watch_panels","panels":[],"whole":1}"#, "\"whole\" must be"),
        (#"{"command":"watch_camera","camera":7}"#, "watch_camera needs"),
        (#"{"command":"watch_camera","camera":"home:cam:1","at":"yesterday"}"#, "\"at\" must be"),
    ])
    func badRequestsSayWhatIsWrong(line: String, start: String) {
        guard case .failure(let failure) = ControlRequest.parse(line) else {
            Issue.record("\(line) was accepted")
            return
        }
        #expect(failure.message.hasPrefix(start), "\(failure.message)")
    }

    @Test func pictureLineRoundTripAndOtherLinesAreNotFrames() throws {
        let jpeg = try JPEG.encode(try #require(RGBImage(width: 8, height: 8, pixels: [UInt8](repeating: 200, count: 192))))
        let line = PictureLine(key: "panel:home", sequence: 7, kind: "live", call: "c1", jpeg: jpeg)
        #expect(!line.encoded.contains("\n"))
        #expect(PictureLine(line: line.encoded) == line)
        #expect(JSONValue.parse(line.encoded)?["frame"] == .string("panel:home"), "a frame line is JSON too")
        #expect(PictureLine(line: #"{"event":"call_incoming"}"#) == nil)
        #expect(PictureLine(line: #"{"frame":"x","seq":1,"kind":"live","call":null,"jpeg":"!!"}"#) == nil)
    }

    /// An attached `watch` says what its own-engine twin says under the picture (issue 23): the
    /// panel's stream note and snapshot problem travel with its frame lines, quotes and all.
    @Test func aPanelsTroublesTravelWithItsPicture() throws {
        let jpeg = try JPEG.encode(try #require(RGBImage(width: 8, height: 8, pixels: [UInt8](repeating: 90, count: 192))))
        let note = "panel home: the live stream refused the user/password (\"admin\"): set rtsp_user in [panel home]: "
            + String(repeating: "long words ", count: 40) + "showing snapshots"
        let line = PictureLine(key: "panel:home", sequence: 3, kind: "snapshot", call: nil, note: note,
                               problem: "snapshot: timed out after 2 s", jpeg: jpeg)
        let back = try #require(PictureLine(line: line.encoded))
        #expect(back == line)
        #expect(back.note == note && back.problem == "snapshot: timed out after 2 s")
        // A line without them reads as no trouble.
        #expect(PictureLine(line: PictureLine(key: "panel:home", sequence: 4, kind: "live", call: nil, jpeg: jpeg).encoded)?.note == nil)
    }

    @Test func everyEventReadsBackFromItsJSON() throws {
        let ref = IntercomEvent.CallRef(id: CallID("c3"), panel: "home", from: "sip:panel@10.0.0.2")
        // Whole milliseconds, as the wire carries them.
        let time = Date(timeIntervalSince1970: 1_796_000_000.25)
        let kinds: [IntercomEvent.Kind] = [
            .started(listen: ["udp:127.0.0.1:5060"], version: "1.0"),
            .registered(account: "sip:me@x", reason: nil), .registrationFailed(account: "sip:me@x", reason: "403"),
            .callIncoming(ref), .callOutgoing(ref, to: "sip:panel@10.0.0.2"),
            .peepholeFrame(ref, width: 640, height: 480, fps: 2.5), .callAnswered(ref, by: .guestMode),
            .doorOpened(panel: "home", call: ref, door: "main", method: "http", by: .key, ok: true, error: nil),
            .doorOpened(panel: "home", call: nil, door: "alt", method: "http", by: .ctl, ok: false, error: "refused"),
            .audioChanged(muted: true, speaker: false, device: "default"),
            .callEnded(ref, reason: .answeredElsewhere, durationSeconds: 12.5),
            .callTransferred(ref, to: "sip:flat12@x", target: "flat12", ok: false, error: "busy"),
            .panelEvent(panel: "home", kind: "motion", state: "on"), .panelUnreachable(panel: "home", error: "timeout"),
            .panelReachable(panel: "home"), .panelPolicy(panel: "home", calls: false, guestUntil: time),
            .panelPolicy(panel: "home", calls: true, guestUntil: nil), .error(message: "oops"),
        ]
        for kind in kinds {
            let event = IntercomEvent(kind, time: time)
            let back = IntercomEvent(json: try #require(JSONValue.parse(event.json.encoded)))
            #expect(back == event, "\(event.json.encoded)")
        }
        #expect(IntercomEvent(json: .object([("event", .string("not_yet_known")), ("time", .string(RFC3339.string(time)))])) == nil)
    }

    @Test func theStateGivesAttachedScreensTheirPanelsDoorsAndCalls() throws {
        let state = try #require(JSONValue.parse("""
            {"event":"state","time":"2026-12-02T07:00:00.000Z","calls":[{"call":"c1","panel":"home","from":"sip:p@x",
            "state":"active","since":"2026-12-02T06:59:00.000Z"}],"panels":[{"name":"home"},{"name":"yard"}],
            "doors":[{"id":"home","name":"home main door","source":"panel","panel":"home"},
            {"id":"op:1:0","name":"Gate","source":"operator","operator":"op","address":"Main st 1"}]}
            """.replacingOccurrences(of: "\n", with: "")))
        #expect(RemoteLink.names(state) == ["home", "yard"])
        // The doors come as the `doors` command lists them, the state's list in the same form.
        guard case .array(let doors)? = state["doors"] else {
            Issue.record("the state has no doors")
            return
        }
        #expect(doors.compactMap(DoorListing.init(json:)) == [DoorListing.panel("home"),
                                            DoorListing(id: "op:1:0", name: "Gate", source: .operator, owner: "op", address: "Main st 1")])
        #expect(RemoteLink.callEvents(state).map(\.name) == ["call_incoming", "call_answered"])
    }

    /// Issue 40: a screen attaching while the site's store is down hears it from the state at once
    /// (`site.reachable`, as `ctl status` has it), after the calls; a daemon without a site is told
    /// as reachable (nothing to miss), so a screen re-attached to it drops an old "site unreachable".
    @Test func theStateTellsAnAttachingScreenWhetherTheSiteAnswers() throws {
        func state(_ site: String?) throws -> JSONValue {
            try #require(JSONValue.parse(#"{"event":"state","time":"2026-12-02T07:00:00.000Z","calls":[],"panels":[]"#
                                         + (site.map { #","site":"# + $0 } ?? "") + "}"))
        }
        let down = RemoteLink.attachEvents(try state(#"{"reachable":false,"error":"connection refused","switches":[]}"#))
        #expect(down.map(\.kind) == [.siteUnreachable(error: "connection refused")])
        #expect(down.first?.time == RFC3339.date("2026-12-02T07:00:00.000Z"))
        let up = RemoteLink.attachEvents(try state(#"{"reachable":true,"error":null,"switches":[]}"#))
        #expect(up.map(\.kind) == [.siteReachable(replayed: 0)])
        #expect(RemoteLink.attachEvents(try state(nil)).map(\.kind) == [.siteReachable(replayed: 0)])
        #expect(RemoteLink.attachEvents(try state("null")).map(\.kind) == [.siteReachable(replayed: 0)])
    }

    /// The figures behind DECISIONS "Screens attach: pictures as JPEG in base64 on the JSON line":
    /// what a frame costs on each side, and what base64 adds over a binary frame of the same JPEG.
    @Test(arguments: [(640, 360), (1280, 720)])
    func carriageFigures(width: Int, height: Int) throws {
        // A camera-like picture: gradients under noise (noise is the worst case for JPEG).
        var seed: UInt32 = 12345
        let pixels = (0..<(width * height * 3)).map { i -> UInt8 in
            seed = seed &* 1_103_515_245 &+ 12345
            let x = (i / 3) % width, y = (i / 3) / width
            return UInt8(truncatingIfNeeded: (x * 255 / width + y * 255 / height) / 2 + Int(seed >> 27))
        }
        let image = try #require(RGBImage(width: width, height: height, pixels: pixels))
        let clock = ContinuousClock()
        let rounds = 20
        var jpeg = Data(), line = "", back: PictureLine?, decoded: RGBImage?
        let encode = clock.measure { for _ in 0..<rounds { jpeg = (try? JPEG.encode(image, quality: PicturePump.quality)) ?? Data() } } / rounds
        let build = clock.measure { for _ in 0..<rounds { line = PictureLine(key: "panel:home", sequence: 1, kind: "live", call: nil, jpeg: jpeg).encoded } } / rounds
        let parse = clock.measure { for _ in 0..<rounds { back = PictureLine(line: line) } } / rounds
        let decode = clock.measure { for _ in 0..<rounds { decoded = try? JPEG.decode(jpeg) } } / rounds
        #expect(back?.jpeg == jpeg && decoded?.width == width)
        print("carriage \(width)×\(height): JPEG \(jpeg.count) B, line \(line.utf8.count) B (+\(line.utf8.count * 100 / max(1, jpeg.count) - 100) %); "
            + "encode \(encode), base64 line \(build), parse \(parse), decode \(decode)")
    }

    @Test func aFrameSlotKeepsTheNewestAndRepliesGoFirst() {
        let outbox = Outbox(limit: 1 << 20)
        outbox.offer(key: "panel:home", line: "f1")
        #expect(!outbox.slotIsFree("panel:home"))
        outbox.offer(key: "panel:home", line: "f2")
        outbox.offer(key: "video", line: "v1")
        _ = outbox.push("reply")
        #expect(outbox.framesDropped == 1)
        var lines: [String] = []
        for _ in 0..<3 { if let line = outbox.pop() { lines.append(String(decoding: line, as: UTF8.self)) } }
        #expect(lines == ["reply\n", "f2\n", "v1\n"])
        #expect(outbox.slotIsFree("panel:home"))
        // Frames never count against the outbox's limit: a slow screen is not dropped for pictures.
        let small = Outbox(limit: 16)
        small.offer(key: "panel:home", line: String(repeating: "x", count: 1000))
        #expect(!small.isClosed)
    }
}
