import Foundation

/// Issue 10: what recognising callers by their packets' source costs a real panel's call. The same
/// INVITE → `call_incoming` measurement as the phone section, against the build from before the
/// check (`BENCH_BASELINE_REV`, built by scripts/bench.sh) and the current one, in alternating
/// rounds of the same run so that machine noise falls on both alike.
enum SpoofCheckBench {
    struct Result {
        var before = Samples()
        var after = Samples()
        var failures = 0
    }

    static func run(current: String, baseline: String, work: String, calls: Int, rounds: Int = 4) async throws -> Result {
        var result = Result()
        let perRound = max(1, calls / rounds)
        for round in 0..<rounds {
            for (binary, isBaseline) in [(baseline, true), (current, false)] {
                let measured = try await PhoneBench.run(intercom: binary, work: "\(work)/spoof-\(round)-\(isBaseline)", calls: perRound)
                for value in measured.inviteToIncoming.values {
                    if isBaseline { result.before.add(value) } else { result.after.add(value) }
                }
                result.failures += measured.failures
            }
        }
        return result
    }
}

func spoofSection() async throws {
    line("## Caller check by source address (issue 10)")
    line()
    guard let baseline = ProcessInfo.processInfo.environment["BENCH_BASELINE"], FileManager.default.isExecutableFile(atPath: baseline) else {
        line("**Not measured:** no baseline build (scripts/bench.sh builds `BENCH_BASELINE_REV` into `.build-baseline`).")
        line()
        return
    }
    let rev = ProcessInfo.processInfo.environment["BENCH_BASELINE_REV"] ?? "?"
    let s = try await SpoofCheckBench.run(current: intercom, baseline: baseline, work: work, calls: max(calls, 40))
    let delta = s.after.median - s.before.median
    line("INVITE → `call_incoming` as in the phone section, the build from before the check (\(rev)) and this one,")
    line("in 4 alternating rounds of the same run. The check: the read hook notes each message's Call-ID and source")
    line("address; the phone looks the INVITE's Call-ID up; the caller directory compares addresses and `match`.")
    line()
    line("| measure | target | before | after | |")
    line("|---|---|---|---|---|")
    // "Measurable" = beyond the run's own noise: a tenth of the median, and never under half a millisecond.
    let noise = max(0.5, s.before.median * 0.1)
    line("| INVITE → `call_incoming` | median within ±\(f(noise, 1)) ms | \(s.before.format()) | \(s.after.format()) | \(f(delta, 2)) ms: \(ok(abs(delta) <= noise)) |")
    line("| failed calls | 0 | | \(s.failures) | |")
    line()
}
