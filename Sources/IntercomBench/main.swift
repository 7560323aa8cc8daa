import Foundation
import IntercomCore

// `intercom-bench INTERCOM_BINARY WORK_DIR` prints the Markdown sections of BENCHMARKS.md.
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: intercom-bench INTERCOM_BINARY WORK_DIR [CALLS]\n".utf8))
    exit(64)
}
let intercom = arguments[1]
let work = arguments[2]
let calls = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20

func line(_ text: String = "") { print(text); fflush(nil) }

/// The word after `flag` on the command line (`--site-url URL`), if both are there.
func optionValue(_ flag: String) -> String? {
    arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
func f(_ value: Double, _ digits: Int = 1) -> String { value.isNaN ? "—" : String(format: "%.\(digits)f", value) }

func ok(_ pass: Bool) -> String { pass ? "met" : "**missed**" }

/// `intercom-bench INTERCOM_BINARY WORK_DIR CALLS --NAME-only` runs just that section.
let singleSections: [(flag: String, run: () async throws -> Void)] = [
    ("--load-only", loadSection),       // the daemon under load
    ("--scan-only", scanSection),       // a SIP scan of unknown callers
    ("--spoof-only", spoofSection),     // the caller check by source address, before and after
    ("--soak-only", soakSection),       // the 1000-call memory soak
    ("--tui-only", tuiSection),         // the terminal client
    ("--attach-only", attachSection),   // screens attached to the daemon
    ("--operator-only", operatorSection), // operator doors: open and doors beside curl
    ("--export-only", exportSection),   // an operator camera's 60 s archive export beside curl
    ("--operator-event-only", operatorEventSection), // a new operator log entry → operator_event on the daemon's stdout
    ("--mqtt-only", mqttSection),       // MQTT and Home Assistant: event and door latency, idle CPU
    ("--video-only", videoSection),     // live video: watch vs ffmpeg's floor, the kiosk's streams, recording
    ("--scale-only", scaleSection),     // the kiosk and the daemon at 1 … 128 panels (--scale-counts 1,8 for a quick look)
    ("--idle-only", idleSection),       // idle softphones: ours beside linphonec and baresip
    ("--ring-idle-only", ringFromIdleSection), // INVITE → call_incoming, the daemon busy and quiet, same run
    ("--light-only", lightSection),     // light commands: log over 100 000 entries, open beside curl
    ("--notify-only", notifySection),   // desktop notifications on a private session bus: ring shown, Open → door
    ("--rfc3339-only", rfc3339Section),  // the journal's times read back: RFC3339.date beside Date.ISO8601FormatStyle
    ("--site-idle-only", siteIdleSection), // a site's 3 desks × 64 panels beside a lone desk (bench-site.sh gives --site-url)
    ("--site-call-only", siteCallSection), // a call forked to a site's 3 desks, answered at B (bench-site.sh gives --site-url)
]
if let section = singleSections.first(where: { arguments.contains($0.flag) }) {
    do { try await section.run() } catch {
        FileHandle.standardError.write(Data("intercom-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

// `intercom-bench --graphics-only WORK_DIR` runs just this section (no binary needed).
if arguments[1] == "--graphics-only" {
    do { try await graphicsSection(work: work) } catch {
        FileHandle.standardError.write(Data("intercom-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

func graphicsSection(work: String) async throws {
    line("## Terminal graphics (issue 4)")
    line()
    let g = try await GraphicsBench.run(work: work)
    line("The simulator's 640×480 scene as a q85 JPEG; decode (DCT-scaled to what the area needs) included;")
    line("truecolor; a fresh full render each run (no diff); 10×20 px cells; median of \(g.fast160.values.count) runs.")
    line("`fast` is our half-block path (`ImageRenderer` symbols, used for video); `chafa` is libchafa \(chafaVersion())")
    line("with block+border+space symbols, work factor 0.2 (used for `snapshot --show`).")
    line()
    line("| measure | target | result | |")
    line("|---|---|---|---|")
    line("| symbols 160×48, fast | ≤ 5 ms | \(g.fast160.format(digits: 2)) | \(ok(g.fast160.median <= 5)) |")
    line("| symbols 80×24, fast | ≤ 2 ms | \(g.fast80.format(digits: 2)) | \(ok(g.fast80.median <= 2)) |")
    line("| symbols 160×48, libchafa | (≤ 5 ms) | \(g.chafa160.format()) | \(ok(g.chafa160.median <= 5)) |")
    line("| symbols 80×24, libchafa | (≤ 2 ms) | \(g.chafa80.format()) | \(ok(g.chafa80.median <= 2)) |")
    line("| `chafa --size 160x48 -f symbols` CLI, same JPEG | — | \(g.cliNote.isEmpty ? g.cli.format() : g.cliNote) | process spawn included |")
    line("| sixel 640×480 (libchafa) | ≤ 30 ms | \(g.sixel.format()), \(g.sixelBytes / 1024) KB | \(ok(g.sixel.median <= 30)) |")
    let share = Double(g.diffBytes) / Double(max(1, g.fullBytes)) * 100
    line("| bytes, 160×48 frame with < 10 % changed vs full redraw | ≤ 10 % | \(g.diffBytes) B of \(g.fullBytes) B (\(f(share)) %) | \(ok(share <= 10)) |")
    line("| bytes, next simulator frame (sun, clock, counter move) | — | \(g.nextFrameBytes) B of \(g.fullBytes) B | |")
    if let kitty = g.modes.first(where: { $0.name == "kitty" }) {
        // Before zlib (`o=z`) a kitty frame was the raw RGB in base64.
        let raw = (640 * 480 * 3 + 2) / 3 * 4
        let kittyShare = Double(kitty.oursBytes) / Double(raw) * 100
        line("| bytes, kitty 640×480 frame (zlib) vs raw RGB in base64 | ≤ 15 % | \(kitty.oursBytes) B of \(raw) B (\(f(kittyShare)) %) | \(ok(kittyShare <= 15)) |")
    }
    line("| sustained 160×48 video, paced at 25 fps | ≥ 20 fps, ≤ 30 % CPU | \(f(g.sustainedFPS)) fps at \(f(g.sustainedCPU)) % of one core | \(ok(g.sustainedFPS >= 20 && g.sustainedCPU <= 30)) |")
    line()
    line("Per mode, ours against the `chafa` \(chafaVersion()) command on the same JPEG at the same size, same run")
    line("(ours: decode + render in this process; chafa: process spawn, decode and render). The CLI does not know")
    line("the cell's pixel size: it draws pixel modes at 8×8 px a cell (the 640×480 picture in 64×24 cells as 512×192")
    line("px, a third of our 640×480 at 10×20 px cells), so its sixel is smaller for fewer pixels; at the same pixel")
    line("size libchafa and the CLI make the same sixel. Our kitty frames are zlib-compressed RGB (`o=z`); our symbols")
    line("repeat the colours of every cell, so chafa's output is smaller per full frame; for video we send only the")
    line("cells that changed (table above).")
    line()
    line("| mode | cells | ours | ours bytes | `chafa` CLI | chafa bytes |")
    line("|---|---|---|---|---|---|")
    for m in g.modes {
        line("| \(m.name) | \(m.cells) | \(m.ours.format(digits: 2)) | \(m.oursBytes) | \(m.chafa.values.isEmpty ? "—" : m.chafa.format()) | \(m.chafaBytes) |")
    }
    line()
    line("In real terminals (`make screenshots`, pictures in `docs/screenshots/`, docs/RESIDENT.md \"Terminal graphics\"): auto")
    line("detection picks kitty graphics in kitty 0.26, sixel in xterm 379 as a VT340, symbols in xterm-256color.")
    line()
}

func chafaVersion() -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/pkg-config")
    p.arguments = ["--modversion", "chafa"]
    let pipe = Pipe()
    p.standardOutput = pipe
    guard (try? p.run()) != nil else { return "" }
    p.waitUntilExit()
    return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

do {
    line("## Phone (issue 2)")
    line()
    let phone = try await PhoneBench.run(intercom: intercom, work: work, calls: calls)
    line("`intercom daemon --events json` in its own process, `auto_answer = on`; the caller is a liblinphone core in")
    line("the bench process. Times are from the caller's INVITE to the daemon's JSON line being read, and from the")
    line("`call_incoming` line to the `call_answered` line (emitted when media runs in both directions).")
    line()
    line("| measure | target | result |")
    line("|---|---|---|")
    line("| INVITE → `call_incoming` | ≤ 15 ms median | \(phone.inviteToIncoming.format()) |")
    line("| answer → media running | ≤ 60 ms median | \(phone.answerToMedia.format()) |")
    line("| failed calls | 0 | \(phone.failures) of \(calls) |")
    line()
    try await spoofSection()
    line("## Peephole (issue 3)")
    line()
    let peephole = try await PeepholeBench.run(intercom: intercom, work: work, calls: calls, cpuWindow: 15)
    line("The daemon in its own process; the simulated panel's HTTP server (Digest auth, 640×480 JPEG) in the bench")
    line("process on loopback. First frame = the first `peephole_frame` line, which the daemon prints right after")
    line("the first snapshot is fetched and decoded. CPU = the whole daemon process over 15 s while one call rings.")
    line()
    line("| measure | target | result |")
    line("|---|---|---|")
    line("| INVITE → first peephole frame decoded | ≤ 100 ms median | \(peephole.inviteToFirstFrame.format()) |")
    line("| daemon CPU while ringing, peephole at 3 fps (decode included) | ≤ 3 % | \(f(peephole.cpuPercentWhileRinging, 2)) % (idle: \(f(peephole.idleCPUPercent, 2)) %) |")
    line("| snapshot requests the panel saw | 2.5–3.5 /s | \(f(peephole.requestsPerSecond, 2)) /s |")
    line()
    try await tuiSection()
    try await attachSection()
    try await loadSection()
    try await idleSection()
    try await ringFromIdleSection()
    try await lightSection()
    try await notifySection()
    try await soakSection()
    try await scanSection()
    try await graphicsSection(work: work)
    try await operatorSection()
    try await exportSection()
    try await mqttSection()
    try await videoSection()
    try await scaleSection()
} catch {
    FileHandle.standardError.write(Data("intercom-bench: \(error)\n".utf8))
    exit(1)
}

func tuiSection() async throws {
    line("## Terminal client (issue 5)")
    line()
    let tui = try await TUIBench.run(intercom: intercom, work: work, calls: min(calls, 10))
    line("`intercom tui` (release) in a 120×40 tmux pane, symbols mode; the simulated panel rings it from the bench process.")
    line("Key times run from `tmux send-keys` (a tmux client process: a few ms of its own) to the panel seeing the")
    line("call established (SIP 200/ACK, media) or the HTTP `intercom_cgi?action=maindoor` request.\(tui.note.isEmpty ? "" : " Note: \(tui.note).")")
    line()
    line("| measure | target | result |")
    line("|---|---|---|")
    line("| key `a` → call established at the panel | ≤ 60 ms median | \(tui.keyToAnswer.format()) |")
    line("| key `o` → panel receives the open request | ≤ 30 ms median | \(tui.keyToDoor.format()) |")
    line("| INVITE → first peephole picture drawn (seen by `capture-pane`, polled every 2 ms) | ≤ 100 ms (issue 3) | \(tui.inviteToPicture.format()) |")
    line("| idle TUI CPU | ≤ 1 % | \(f(tui.idleCPU, 2)) % |")
    line("| TUI CPU while showing the peephole at 3 fps | ≤ 5 % | \(f(tui.ringingCPU, 2)) % |")
    line()
}

func loadSection() async throws {
    line("## Daemon under load, journal (issue 6)")
    line()
    let load = try await DaemonLoadBench.run(intercom: intercom, work: work)
    line("`intercom daemon` with the journal and control socket on, `auto_answer = on`; a liblinphone caller places")
    line("60 calls at 2 a second, each answered and then hung up. The journal query runs `intercom log --since 1d`")
    line("(process start included) on a journal of 100 000 calls spread over 30 days.")
    line()
    line("| measure | target | result |")
    line("|---|---|---|")
    line("| calls handled | all 60 | \(load.handled) of \(load.calls) |")
    line("| RSS growth from call 10 to call 60 | < 10 MB | \(f(load.rssAt60 - load.rssAt10)) MB (\(f(load.rssAt10)) → \(f(load.rssAt60)) MB) |")
    line("| `intercom log --since 1d`, 100 000 entries | < 100 ms | \(load.logSinceDay.format()), \(load.logEntries) rows |")
    line()
    line("`intercom log` runs in the light front binary (Foundation and SQLite only); commands that need the phone")
    line("exec `intercom-full`, whose ~200 shared libraries cost about 80 ms of start-up (DECISIONS.md).")
    line()
}

func soakSection() async throws {
    // 2500 by default: one reading can be a megabyte off (arenas, caches), so over 1000 calls a
    // plateau and a slow leak look alike; BENCH_SOAK_CALLS changes it.
    let wanted = ProcessInfo.processInfo.environment["BENCH_SOAK_CALLS"].flatMap(Int.init) ?? 2500
    line("## Memory soak, \(wanted) calls (issue 10)")
    line()
    let soak = try await SoakBench.run(intercom: intercom, work: work, calls: wanted)
    let rate = Double(soak.calls) / soak.seconds
    line("`intercom daemon` with the journal, control socket and peephole (simulated panel, 3 fps) on, `auto_answer = on`;")
    line("a liblinphone caller places \(soak.calls) calls one after another (\(f(rate)) a second), each answered and hung up.")
    line("Private memory is Private_Clean + Private_Dirty of `/proc/PID/smaps_rollup` (RSS also counts shared library")
    line("pages), the lowest of five readings 2–3 s after the checkpoint's call ended, every \(SoakBench.every) calls. The slope")
    line("is the least-squares fit over the checkpoints from call 300 on: by then arenas and caches have their working")
    line("size, so what remains is what each call leaves behind.")
    line()
    line("| measure | target | result | |")
    line("|---|---|---|---|")
    line("| calls handled | all \(soak.calls) | \(soak.handled) of \(soak.calls) in \(f(soak.seconds, 0)) s | \(ok(soak.handled == soak.calls)) |")
    for point in SoakBench.reported.compactMap(soak.at) {
        line("| private memory at call \(point.call) | — | \(f(point.privateKB / 1024, 2)) MB (RSS \(f(point.rssMB)) MB) | |")
    }
    let slope = soak.slopeKB()
    line("| private memory per call after call 300 | ≤ 1 KB | \(f(slope, 2)) KB | \(ok(slope <= 1)) |")
    if soak.calls >= 2000 {
        line("| private memory per call after call 1000 | ≤ 1 KB | \(f(soak.slopeKB(from: 1000), 2)) KB | \(ok(soak.slopeKB(from: 1000) <= 1)) |")
    }
    line()
    line("Every checkpoint (call: private MB): " + soak.checkpoints.map { "\($0.call): \(f($0.privateKB / 1024, 2))" }.joined(separator: ", ") + ".")
    line()
}

func scanSection() async throws {
    line("## SIP scan (issue 7)")
    line()
    let scan = try await ScanBench.run(intercom: intercom, work: work)
    line("`intercom daemon` with `unknown_callers = reject`; sipp sends \(scan.calls) INVITEs from `sip:scanner@` (no panel)")
    line("at \(scan.rate) a second over UDP, each expecting 403 and ACKing it. RSS after a 1 000-call warm-up and after the")
    line("scan; CPU is the daemon's over the scan. Strangers are refused on the phone thread before liblinphone builds a call.")
    line()
    line("| measure | target | result | |")
    line("|---|---|---|---|")
    line("| INVITEs answered 403 | all \(scan.calls) | \(scan.answered403) (failed: \(scan.failed)) | \(ok(scan.answered403 == scan.calls)) |")
    line("| call events printed | 0 | \(scan.callEvents) | \(ok(scan.callEvents == 0)) |")
    line("| time for the scan | \(scan.calls / scan.rate) s at the offered rate | \(f(scan.seconds)) s | \(ok(scan.seconds < Double(scan.calls / scan.rate) * 1.1)) |")
    line("| RSS growth over the scan | < 5 MB | \(f(scan.rssAfter - scan.rssBefore)) MB (\(f(scan.rssBefore)) → \(f(scan.rssAfter)) MB) | \(ok(scan.rssAfter - scan.rssBefore < 5)) |")
    line("| daemon CPU during the scan | — | \(f(scan.cpuPercent)) % of one core | |")
    line()
}

func operatorSection() async throws {
    line("## Operator doors (issue 12)")
    line()
    let runs = 30
    let op = try await OperatorBench.run(intercom: intercom, work: work, runs: runs)
    let cpu = BenchMachine.cpuModel()
    line("Run \(op.date) on \(ProcessInfo.processInfo.activeProcessorCount) cores (\(cpu)); load average (1, 5, 15 min)")
    line("before: \(op.loadBefore), after: \(op.loadAfter).")
    line()
    line("The light binary `intercom` (as users run it) against the simulated SmartYard operator in the bench")
    line("process on loopback, logged in once through `intercom login` (private config and state directory). Each")
    line("command is measured beside the same API request made by the `curl` command (\(op.curlVersion.split(separator: " ").prefix(2).joined(separator: " ")),")
    line("same headers, token and body), \(runs) runs each after 3 warm-ups, interleaved run by run with the order")
    line("alternating, so both sides meet the same load; wall time from spawn to exit. curl's time is the server's")
    line("answer plus curl's own start-up, so \"ours over the server's\" (our median − curl's) is if anything low.")
    line("`intercom doors --json` asks `address/getAddressList` once (one request per operator); its curl twin is that")
    line("one request.")
    line()
    line("| measure | `intercom` median (p90) | `curl` median (p90) | ours over the server's | target | |")
    line("|---|---|---|---|---|---|")
    line("| `intercom open bench:1:0` vs `address/openDoor` | \(f(op.open.ours.median)) ms (\(f(op.open.ours.percentile(90)))) | \(f(op.open.curl.median)) ms (\(f(op.open.curl.percentile(90)))) | \(f(op.open.overhead)) ms | ≤ 60 ms | \(ok(op.open.overhead <= 60)) |")
    line("| `intercom doors --json`, 20 addresses (\(op.doorCount) doors) vs `address/getAddressList` | \(f(op.doors.ours.median)) ms (\(f(op.doors.ours.percentile(90)))) | \(f(op.doors.curl.median)) ms (\(f(op.doors.curl.percentile(90)))) | \(f(op.doors.overhead)) ms | ≤ 100 ms | \(ok(op.doors.overhead <= 100)) |")
    line("| `intercom doors`, nothing configured (start-up and config only, run in the open rounds) | \(f(op.startup.median)) ms (\(f(op.startup.percentile(90)))) | — | — | — | |")
    line()
    line("CPU time (user + system, from `wait4`) of the same runs, median: what each process cost whatever else the")
    line("machine was doing. On a loaded machine wall time grows with it, so this is where our own time comes from.")
    line()
    line("| measure | `intercom` CPU | `curl` CPU |")
    line("|---|---|---|")
    line("| open | \(f(op.open.oursCPU.median)) ms | \(f(op.open.curlCPU.median)) ms |")
    line("| doors, 20 addresses | \(f(op.doors.oursCPU.median)) ms | \(f(op.doors.curlCPU.median)) ms |")
    line("| start-up and config only | \(f(op.startupCPU.median)) ms | — |")
    line()
    line("Open requests the simulated operator counted: \(op.openRequests) of \(op.expectedOpenRequests) sent; the simulated")
    line("panel behind it (HTTP Basic, as SmartYard's Beward driver) saw \(op.panelOpens) door requests, each before the 204.")
    line()
    try await operatorEventSection()
}

func operatorEventSection() async throws {
    line("### A new operator log entry → `operator_event`")
    line()
    let runs = 20
    let e = try await OperatorEventBench.run(intercom: intercom, work: work, runs: runs)
    line("`intercom daemon --events json` with `[operator bench]` (`log_interval = 1`, the least) against the simulated")
    line("operator in the bench process, logged in as above. The bench adds an entry (an unanswered call, with its")
    line("picture) at a random moment of the 1 s rounds and reads the event's JSON line (matched by the entry's uuid)")
    line("on the daemon's stdout. \"After the sync that sees it\" starts when the simulator first hands the entry out in")
    line("`address/plog`: the rest of that round (the preview picture fetched, the journal written) and the event out.")
    line("\(runs) entries after 2 warm-ups\(e.missed > 0 ? "; \(e.missed) never came within 10 s" : "").")
    line()
    line("| measure | median (p90) | max | target | |")
    line("|---|---|---|---|---|")
    line("| `address/plog` hands the entry out → `operator_event` on stdout | \(f(e.afterSync.median)) ms (\(f(e.afterSync.percentile(90)))) | \(f(e.afterSync.max)) ms | ≤ 2 s | \(ok(e.missed == 0 && e.afterSync.percentile(90) <= 2000)) |")
    line("| entry created → `operator_event` (the wait for the next round included) | \(f(e.fromEntry.median)) ms (\(f(e.fromEntry.percentile(90)))) | \(f(e.fromEntry.max)) ms | — | |")
    line()
}

func mqttSection() async throws {
    line("## MQTT and Home Assistant (issue 14)")
    line()
    let m = try await MQTTBench.run(intercom: intercom, work: work, noDelay: true, idle: true)
    let nagle = try await MQTTBench.run(intercom: intercom, work: "\(work)/nagle", noDelay: false, idle: false)
    let cpu = BenchMachine.cpuModel()
    let load = BenchMachine.loadAverage()
    line("Run \(m.date) on \(ProcessInfo.processInfo.activeProcessorCount) cores (\(cpu)); load average after: \(load).")
    line()
    line("`intercom daemon --events json` with `[mqtt]` against \(m.brokerVersion) on loopback (no persistence,")
    line("anonymous, `set_tcp_nodelay true`; the last two rows: the broker's default). The bench is the other MQTT")
    line("client (IntercomMQTT's, QoS 1) and the panel's HTTP side (the simulated panel's server in the bench process,")
    line("Digest). Events: a second client of the bench switches do-not-disturb over MQTT, as a Home Assistant switch")
    line("or a script would; each switch is a `panel_policy` event, timed from the event's own `time` (made in the engine, ms resolution) to its")
    line("JSON arriving on `ROOT/events` here. Door: from publishing `PRESS` on the door's command topic to the simulated")
    line("panel counting `intercom_cgi?action=maindoor` (polled every 0.2 ms). Three warm-ups each, not counted.")
    line()
    line("| measure | target | median (p90) | |")
    line("|---|---|---|---|")
    line("| event → MQTT message at a subscriber, \(m.eventLatency.values.count) events | ≤ 5 ms median | \(f(m.eventLatency.median)) ms (\(f(m.eventLatency.percentile(90)))) | \(ok(m.eventLatency.median <= 5)) |")
    line("| door command over MQTT → the panel's request, \(m.doorLatency.values.count) presses | ≤ 30 ms median | \(f(m.doorLatency.median)) ms (\(f(m.doorLatency.percentile(90)))) | \(ok(m.doorLatency.median <= 30)) |")
    line("| daemon idle CPU, MQTT connected (30 s) | ≤ 0.5 % | \(f(m.idleCPU, 2)) % of one core, \(f(m.idleRSS)) MB RSS | \(ok(m.idleCPU <= 0.5)) |")
    line("| daemon idle CPU without `[mqtt]`, same run (30 s) | — | \(f(m.idleCPUWithout, 2)) % | |")
    line("| event → subscriber, broker default (Nagle on) | — | \(f(nagle.eventLatency.median)) ms (\(f(nagle.eventLatency.percentile(90)))) | |")
    line("| door command → panel, broker default (Nagle on) | — | \(f(nagle.doorLatency.median)) ms (\(f(nagle.doorLatency.percentile(90)))) | |")
    line()
    line("Our client sets TCP_NODELAY on its own socket. The broker's default keeps Nagle on its sockets: two packets")
    line("in a row to one client while the first is unacknowledged (a PUBACK for the client's own command, then the")
    line("PUBLISH it caused) wait for that client's delayed ACK, about 40 ms: measured so, with the commands sent on the")
    line("subscriber's own connection, an event took 41 ms under the default and 1.5 ms with `set_tcp_nodelay true`")
    line("(docs/MQTT.md recommends it).")
    line()
    line("Door requests the panel counted: \(m.doorsSeen) (\(m.doorLatency.values.count + 3) presses sent).")
    line()
}

func videoSection() async throws {
    line("## Live video and recorded clips (issue 13)")
    line()
    let v = try await VideoBench.run(intercom: intercom, work: work)
    let load = BenchMachine.loadAverage()
    line("A real RTSP server (gst-rtsp-server, x264 baseline, a key frame every second, Digest) on loopback. `intercom watch`")
    line("(release) in a 160×49 tmux pane, symbols mode (160×48 picture cells); pictures drawn are its status line's `#N`")
    line("counter over 10 s; CPU of its process (decode, scale, draw) from /proc over the same 10 s. The floor is")
    line("`ffmpeg -rtsp_transport tcp -i URL -f null -` decoding the same stream right after, 10 s.\(v.note.isEmpty ? "" : " Note: \(v.note).")")
    line("Load average after: \(load).")
    line()
    line("| measure | target | result | |")
    line("|---|---|---|---|")
    line("| watch RTSP 640×480 25 fps → 160×48 symbols: pictures drawn | ≥ 24 fps | \(f(v.drawnFPS)) fps | \(ok(v.drawnFPS >= 24)) |")
    line("| watch: CPU with decode | ≤ 12 % of one core | \(f(v.watchCPU)) % | \(ok(v.watchCPU <= 12)) |")
    line("| `ffmpeg -f null` on the same stream (decode only) | — | \(f(v.ffmpegCPU)) % | |")
    line("| watch against the floor | ≤ 2× | \(f(v.watchCPU / v.ffmpegCPU)) × | \(ok(v.watchCPU <= 2 * v.ffmpegCPU)) |")
    line("| first live picture after `watch` starts (process start included; 1 s key frames) | ≤ 0.5 s | \(v.firstLive.format()) | \(ok(v.firstLive.median <= 500)) |")
    line("| kiosk, 16 live sub streams 352×288 15 fps, 200×60 pane | ≤ 60 % of one core | \(f(v.kioskCPU)) % (\(v.kioskLiveTiles) decode threads) | \(ok(v.kioskCPU <= 60)) |")
    line("| daemon in a 15 fps video call, `record = off` | — | \(f(v.callCPUPlain)) % | |")
    line("| the same with `record = calls` | ≤ +5 % | \(f(v.callCPURecorded)) % (\(v.callCPURecorded >= v.callCPUPlain ? "+" : "−")\(f(abs(v.callCPURecorded - v.callCPUPlain)))), clip \(v.clipBytes / 1024) KB | \(ok(v.callCPURecorded - v.callCPUPlain <= 5)) |")
    line()
    line("Kitty frames at 25 fps are the zlib-compressed RGB of the graphics section (≤ 15 % of the raw frame there).")
    line()
}

/// `--scale-counts 1,8` and `--scale-window SECONDS` shorten the curve for a look on a busy machine.
func scaleSection() async throws {
    let counts = optionValue("--scale-counts")
        .map { $0.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 } } ?? ScaleBench.defaultCounts
    let window = optionValue("--scale-window").flatMap(Double.init) ?? 20
    line("## Many panels: the kiosk and the daemon as a curve (issue 16)")
    line()
    let points = try await ScaleBench.run(intercom: intercom, work: work, counts: counts, settle: 5, window: window)
    let load = BenchMachine.loadAverage()
    line("Release build. The panels are stub servers on loopback, all on one thread of the bench process: a 640×480")
    line("JPEG (\"stills\") for `images_cgi`, a never-ending alarm stream. `intercom tui --kiosk` (200×60 tmux pane, symbols)")
    line("polls every panel's still at 1 fps and follows its alarm stream; `intercom daemon` follows the alarm streams.")
    line("Each process alone, 5 s to settle, CPU (one core) over \(f(window, 0)) s, then RSS, USS (Private_Clean + Private_Dirty")
    line("of /proc/PID/smaps_rollup) and threads (/proc/PID/task). Load average after: \(load).")
    line()
    line("| panels | kiosk CPU | kiosk RSS | kiosk USS | kiosk threads | stills/s | daemon CPU | daemon RSS | daemon USS | daemon threads |")
    line("|---|---|---|---|---|---|---|---|---|---|")
    for p in points {
        line("| \(p.panels) | \(f(p.kiosk.cpu, 2)) % | \(f(p.kiosk.rssMB)) MB | \(f(p.kiosk.ussMB)) MB | \(p.kiosk.threads) | \(f(p.kiosk.snapshotsPerSecond)) "
            + "| \(f(p.daemon.cpu, 2)) % | \(f(p.daemon.rssMB)) MB | \(f(p.daemon.ussMB)) MB | \(p.daemon.threads) |")
    }
    line()
    let kioskCPU = ScaleBench.perPanel(points) { $0.kiosk.cpu }
    let kioskUSS = ScaleBench.perPanel(points) { $0.kiosk.ussMB }
    let daemonCPU = ScaleBench.perPanel(points) { $0.daemon.cpu }
    let daemonUSS = ScaleBench.perPanel(points) { $0.daemon.ussMB }
    let kioskThreads = ScaleBench.perPanel(points) { Double($0.kiosk.threads) }
    let daemonThreads = ScaleBench.perPanel(points) { Double($0.daemon.threads) }
    line("| per added panel (slope, smallest to largest count) | target | kiosk | daemon | |")
    line("|---|---|---|---|---|")
    line("| CPU | ≤ 0.4 % of one core | \(f(kioskCPU, 3)) % | \(f(daemonCPU, 3)) % | \(ok(kioskCPU <= 0.4 && daemonCPU <= 0.4)) |")
    line("| USS | ≤ 1 MB | \(f(kioskUSS, 2)) MB | \(f(daemonUSS, 2)) MB | \(ok(kioskUSS <= 1 && daemonUSS <= 1)) |")
    line("| threads | constant (≈ 0) | \(f(kioskThreads, 2)) | \(f(daemonThreads, 2)) | \(ok(kioskThreads < 0.05 && daemonThreads < 0.05)) |")
    line()
    let idle = optionValue("--scale-idle").flatMap { Int($0) } ?? 64
    let ring = try await ScaleBench.inviteToPicture(intercom: intercom, work: work, idle: idle, calls: min(calls, 10))
    line("`intercom tui` (120×40 pane, symbols) with \(idle) idle stub panels (their alarm streams open) and the simulated")
    line("panel, which rings it; from sending the INVITE to half blocks (`▀`) on the tmux screen, read every 5 ms with")
    line("`tmux capture-pane` (a process spawn each: a few ms of resolution).")
    line()
    line("| measure | target | result | |")
    line("|---|---|---|---|")
    line("| INVITE → picture drawn, \(idle) panels idle | ≤ 30 ms median | \(ring.format()) | \(ok(ring.median <= 30)) |")
    line()
}

func idleSection() async throws {
    line("### Idle softphones, same run (issues 6, 27)")
    line()
    let idle = try await IdleBench.run(intercom: intercom, work: work, window: 20)
    line("Each process alone, 3 s to settle, then CPU over 20 s, then RSS and private memory (Private_Clean +")
    line("Private_Dirty of /proc/PID/smaps_rollup: pages no other process maps). No calls, no sound card. Ours follows")
    line("one simulated panel (its alarm stream); the second row adds `[mqtt]` connected to a mosquitto on loopback")
    line("and the panel's `rtsp` set to an RTSP server on loopback (nobody watching, so nothing is decoded).")
    line()
    line("| process | RSS | private | CPU (one core) | shared objects | note |")
    line("|---|---|---|---|---|---|")
    for figure in idle {
        line("| \(figure.name) | \(f(figure.rssMB)) MB | \(f(figure.privateMB)) MB | \(f(figure.cpuPercent, 2)) % | \(figure.libraries) | \(figure.note) |")
    }
    line()
    if let ours = idle.first {
        line("Targets for the idle daemon (issue 27): RSS ≤ 60 MB (\(ok(ours.rssMB <= 60))), private ≤ 8 MB (\(ok(ours.privateMB <= 8))),")
        line("CPU ≤ 0.2 % (\(ok(ours.cpuPercent <= 0.2))).")
        line()
    }
    for figure in idle where !figure.heaviest.isEmpty {
        line("Most private memory, \(figure.name): " + figure.heaviest.map { "\($0.name) \(f(Double($0.privateKB) / 1024, 2)) MB" }.joined(separator: ", ") + ".")
    }
    line()
}

/// A ring must not wait for the idle phone thread's 500 ms iterate pace (issue 27): INVITE → `call_incoming`
/// with the next call 0.1 s after the last (the thread still in its 50 ms window) and 3 s after (quiet), in
/// alternating rounds of the same run.
func ringFromIdleSection() async throws {
    line("### Ring from an idle daemon (issue 27)")
    line()
    var busy = Samples(), quiet = Samples()
    var failures = 0
    let perRound = max(1, min(calls, 20) / 4)
    for round in 0..<2 {
        let b = try await PhoneBench.run(intercom: intercom, work: "\(work)/ring-busy-\(round)", calls: perRound, gap: 0.1)
        let q = try await PhoneBench.run(intercom: intercom, work: "\(work)/ring-quiet-\(round)", calls: perRound, gap: 3)
        busy.values += b.inviteToIncoming.values
        quiet.values += q.inviteToIncoming.values
        failures += b.failures + q.failures
    }
    line("`intercom daemon --events json`, `auto_answer = on`, the caller a liblinphone core in the bench process (as")
    line("in the phone section). The daemon's phone thread iterates every 50 ms for 2 s after anything wakes it and")
    line("every 500 ms after that; an INVITE wakes it at once on the SIP socket. 2 rounds, alternating.")
    line()
    line("| measure | target | result | |")
    line("|---|---|---|---|")
    line("| INVITE → `call_incoming`, next call 0.1 s after the last | ≤ 15 ms median | \(busy.format()) | \(ok(busy.median <= 15)) |")
    line("| INVITE → `call_incoming`, next call 3 s after the last (quiet pace) | within 5 ms of the above | \(quiet.format()) | \(ok(quiet.median - busy.median <= 5)) |")
    line("| failed calls | 0 | \(failures) | |")
    line()
}

func lightSection() async throws {
    line("## Light commands (issue 27)")
    line()
    let light = try await LightCommandBench.run(intercom: intercom, work: work)
    line("The light `intercom` binary (\(light.libraries) shared objects by `ldd`), process start to exit, \(light.runs) runs after 3 warm-ups.")
    line("`log` reads a journal of 100 000 calls over 30 days. `open` makes the simulated panel's Digest-authenticated")
    line("`intercom_cgi?action=maindoor` request; curl makes the same request in the same round (order alternating), so")
    line("\"over curl\" is our start-up and work beside curl's, the panel's time taken out. Load average after: \(light.loadAfter).")
    line()
    line("| measure | target | result | |")
    line("|---|---|---|---|")
    line("| `intercom log --since 1d`, 100 000 entries | ≤ 50 ms | \(light.log.format()), CPU \(f(light.logCPU.median)) ms, \(light.logRows) rows | \(ok(light.log.median <= 50)) |")
    let over = light.open.median - light.curl.median
    line("| `intercom open PANEL` | — | \(light.open.format()), CPU \(f(light.openCPU.median)) ms | |")
    line("| curl, the same request | — | \(light.curl.format()), CPU \(f(light.curlCPU.median)) ms | |")
    line("| `intercom open` over curl (medians) | ≤ 10 ms | \(f(over)) ms | \(ok(over <= 10)) |")
    line("| door requests the panel counted | \(2 * (light.runs + 3)) | \(light.doorRequests) | |")
    line()
}
