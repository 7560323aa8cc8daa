#!/usr/bin/env bash
# The whole suite as four serial `swift test` processes at once (make test). Most suites wait on real
# peers and processes, not on the CPU (a whole run uses ~250 s of CPU in ~250 s of wall time on 2 cores), so
# four of them side by side take about a quarter of the wall time of one (docs/PROOF.md). Shards 1, 2 and 4
# run the suites matching their regexes; shard 3 skips exactly those, so every test runs in one shard and a
# new suite lands in shard 3 by itself: nothing can fall between the shards.
#
# Needs a finished build (`swift build --build-tests`): every shard runs with --skip-build, and with
# --ignore-lock, since SwiftPM's lock on .build would otherwise make each wait for the one before (nothing
# is built, so nothing is written under .build). Each line is prefixed with its shard ([1] to [4]); the
# run fails (exit 1) if any shard fails, and each shard's result line and failures are repeated at the end.
set -u
swift=${SWIFT:-swift}
# Split by target and suite, not by a table of measured times, so the partition does not go stale; the sizes
# are those of 2026-12-07's last runs (DECISIONS.md "make test in shards": with three shards each took 280-320 s,
# with four 190-245 s). Shard 1: the end-to-end target's daemons, faults, security and sound, the operator client's
# and the screens' (tmux) integration suites. Shard 2: the end-to-end suites named in `second` (MQTT, the daemons'
# suites that slowed most under load, the site's desks on PostgreSQL and Kamailio), and the simulators. Shard 4:
# the end-to-end suites named in `fourth`, the longest ones (strangers' SIP floods, secrets, the panel's HTTP
# faults, re-attach, install and the Debian package, caller identity, the peers' self-tests, the scan of unknown
# callers, the switches' restart). Shard 3: the rest: every unit target, the engine's, phone's, panel's, site's and
# video's integration targets (video beside the unit tests: its RTSP server starved beside the daemons' suites).
# Swift Testing's filters are Swift regexes over "Target.Suite/test()"; the lookahead keeps the partition exact.
second='MakeInstallDepsTests|ManualTests|CompletionTests|DaemonMQTTTests|DaemonMQTTExposureTests'
second="$second|DaemonMQTTTLSTests|DaemonMQTTOperatorTests|KioskScaleTmuxTests|SIPTLSTests"
second="$second|DaemonRegistrarTests|DaemonAttendedTransferTests|DaemonShareExpiryTests"
second="$second|DaemonSiteTests|DaemonSiteCallTests|DaemonSiteJournalTests"
fourth='StrangerRequestTests|ReattachTmuxTests|SecretLeakTests|DaemonPanelFaultTests|InstallTests|CallerIdentityTests'
fourth="$fourth|PeersSelfTests|DaemonScanTests|SwitchPersistenceTests"
shard1=${SHARD1:-"^IntercomEndToEndTests\.(?!($second|$fourth)\b)|^IntercomOperatorIntegrationTests\.|^IntercomTUIIntegrationTests\."}
shard2=${SHARD2:-"^IntercomEndToEndTests\.($second)\b|^IntercomSimulatorIntegrationTests\."}
shard4=${SHARD4:-"^IntercomEndToEndTests\.($fourth)\b"}
logs=$(mktemp -d "${TMPDIR:-/tmp}/intercom-shards.XXXXXX") || exit 2
trap 'rm -rf "$logs"' EXIT

run_shard() {
    local name=$1; shift
    local start=$SECONDS
    "$swift" test --skip-build --ignore-lock --no-parallel "$@" 2>&1 | tee "$logs/$name.log" | sed -u "s/^/[$name] /"
    local status=${PIPESTATUS[0]}
    echo "$status $((SECONDS - start))" > "$logs/$name.status"
    return "$status"
}

run_shard 1 --filter "$shard1" & one=$!
run_shard 2 --filter "$shard2" & two=$!
run_shard 3 --skip "$shard1" --skip "$shard2" --skip "$shard4" & three=$!
run_shard 4 --filter "$shard4" & four=$!
wait "$one"; wait "$two"; wait "$three"; wait "$four"

failed=0
for name in 1 2 3 4; do
    read -r status seconds < "$logs/$name.status" || status=2
    result=$(grep -aE '(✔|✘) Test run with' "$logs/$name.log" | tail -1)
    echo "shard $name (exit $status, ${seconds:-?} s): ${result:-no test run line: see its output above}"
    [ "$status" = 0 ] && [ -n "$result" ] || failed=1
done
if [ "$failed" != 0 ]; then
    # The failures again, last: a CI log is often read from its tail only, and the shards' own lines are
    # thousands above it. Swift Testing's failures are ✘ lines, an issue's details the indented and ↳
    # lines right after it (a failed suite's ↳ lines are its doc comment: left out); XCTest's are "error:".
    for name in 1 2 3 4; do
        awk '/✘/ { print; detail = /recorded an issue/; next }
             detail && /^[[:space:]]*↳|^[[:space:]][[:space:]]/ { print; next }
             { detail = 0 } /: error: / { print }' "$logs/$name.log" | head -40 | sed "s/^/[$name] /"
    done
    echo "test-shards: a shard failed: its failures are the lines above prefixed with its number and ✘" >&2
    exit 1
fi
