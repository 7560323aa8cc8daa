#!/usr/bin/env bash
# make fuzz: builds intercom-fuzz with libFuzzer + AddressSanitizer and runs every target for
# FUZZ_SECONDS each (default 30). Seeds come from Fuzz/corpus/<target>, dictionaries from
# Fuzz/dict; the corpus the run grows and any crash input stay under $FUZZ_SCRATCH/fuzz-out.
# Exit status 1 when a target crashed, leaked or timed out; the log names the input.
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-30}
scratch=${FUZZ_SCRATCH:-.build-fuzz}
targets=${FUZZ_TARGETS:-config keyvalue alarm jpeg terminal control sip syslog}
swift=${SWIFT:-swift}

# SwiftPM's --sanitize fuzzer keeps it from defining main (libFuzzer owns it), but it passes
# each sanitizer as its own -sanitize= flag and swiftc keeps only the last; the combined flag
# after it is what actually instruments the Swift code. gold crashes on the result, lld links it.
"$swift" build --product intercom-fuzz --scratch-path "$scratch" \
    --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=address \
    -Xswiftc -DINTERCOM_FUZZ -Xswiftc -use-ld=lld || exit 2

bin="$scratch/debug/intercom-fuzz"
out="$scratch/fuzz-out"
failed=0
printf '%-9s %6s %10s %8s %6s %7s  %s\n' target seconds execs exec/s cov corpus result
for target in $targets; do
    mkdir -p "$out/corpus/$target" "$out/crashes"
    dict=()
    [ -f "Fuzz/dict/$target.dict" ] && dict=("-dict=Fuzz/dict/$target.dict")
    log="$out/$target.log"
    # The Swift backtracer would symbolicate every trap for seconds; libFuzzer reports them itself.
    SWIFT_BACKTRACE=enable=no INTERCOM_FUZZ_TARGET=$target \
        "$bin" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "${dict[@]}" -artifact_prefix="$out/crashes/$target-" \
        "$out/corpus/$target" "Fuzz/corpus/$target" >"$log" 2>&1
    status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    corpus=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
    if [ "$status" -eq 0 ]; then
        result=ok
    else
        failed=1
        result="FAILED (exit $status): $(grep -m1 -E 'Fatal error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|SUMMARY' "$log"), see $log"
    fi
    printf '%-9s %6s %10s %8s %6s %7s  %s\n' "$target" "$seconds" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${corpus:-?}" "$result"
done
exit $failed
