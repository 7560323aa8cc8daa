import Foundation

/// BENCHMARKS.md's section for screens attached to the daemon (issue 23).
func attachSection() async throws {
    line("## Screens attached to the daemon (issue 23)")
    line()
    let a = try await AttachBench.run(intercom: intercom, work: work, rounds: min(calls, 10))
    line("`intercom daemon` with one simulated panel (snapshots, 3 fps while it rings); `intercom tui` in 120×40 tmux panes")
    line("attached to it; \"protocol screens\" are control connections in the bench process that attach and subscribe to")
    line("the panel's picture at 640×360, 12 fps, as an attached screen does. The in-process figure is `intercom tui")
    line("--own-engine` with its own port, rung by the same panel in the same run. Screens are seen by `capture-pane`,")
    line("polled as fast as tmux answers (each capture is a tmux process: a few ms).\(a.note.isEmpty ? "" : " Note: \(a.note).")")
    line()
    let ring = a.ringAttached.median - a.ringOwn.median
    let cpu = a.cpuThree / a.cpuOne
    let kept = zip(a.rateBefore, a.rateStopped).allSatisfy { $1 >= $0 * 0.9 }
    let perAttach = (a.memory1000 - a.memory100) / 900
    line("| measure | target | result | |")
    line("|---|---|---|---|")
    line("| `intercom tui` start → first full screen (title attached, state drawn) | ≤ 150 ms median | \(a.startToScreen.format()) | \(ok(a.startToScreen.median <= 150)) |")
    line("| `intercom watch PANEL` start → first picture (symbols, the panel's snapshot through the daemon; runs in `\(a.watchBinary)`) | — | \(a.watchToPicture.format()) | |")
    line("| `intercom help log` alone (the attached screen's binary, the light one: no phone; loaded, then exit) | — | \(a.processStart.format()) | |")
    line("| `intercom-full help` alone (the binary that ran attached screens before: ~220 shared libraries) | — | \(a.fullStart.format()) | |")
    line("| INVITE → ring drawn, attached screen | own engine + 10 ms | \(a.ringAttached.format()) | \(ok(ring <= 10)) |")
    line("| INVITE → ring drawn, own engine (same run) | — | \(a.ringOwn.format()) | difference \(f(ring)) ms |")
    line("| daemon CPU while the panel rings, one screen | — | \(f(a.cpuOne, 2)) % of a core | |")
    line("| daemon CPU, three screens (the TUI and two protocol screens) | ≤ 1.5 × one | \(f(a.cpuThree, 2)) % (\(f(cpu, 2)) ×) | \(ok(cpu <= 1.5)) |")
    line("| frames/s of the two protocol screens, before → while the TUI is SIGSTOPped 10 s | kept | "
        + "\(a.rateBefore.map { f($0) }.joined(separator: ", ")) → \(a.rateStopped.map { f($0) }.joined(separator: ", "))"
        + "\(a.stoppedStillAttached ? "; the TUI still attached after SIGCONT" : "") | \(ok(kept && !a.rateStopped.isEmpty)) |")
    line("| daemon private memory, attach/detach 100 → 1000 times | ≤ 1 KB per attach | \(f(a.memory100 / 1024)) → \(f(a.memory1000 / 1024)) MB (\(f(perAttach, 2)) KB per attach) | \(ok(perAttach <= 1)) |")
    line()
}
