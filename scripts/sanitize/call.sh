#!/usr/bin/env bash
# One real panel call through the real binary: a simulated panel rings `intercom daemon`
# (auto_answer = on, audio and H.264 video), the door is opened over the control socket (HTTP to
# a second simulated panel serving the CGI), the call is hung up, the daemon gets SIGTERM.
#   call.sh INTERCOM_BINARY OUTPUT_DIR
# make sanitize passes the AddressSanitizer build, whose reports land where ASAN_OPTIONS says.
# (valgrind 3.19, Debian 12's, crashes on any Swift program with an async main, so not valgrind.)
# Writes OUTPUT_DIR/events.jsonl and daemon.err; exit 1 when a step did not happen.
set -uo pipefail
bin=$(realpath "${1:?intercom binary}")
out=$(mkdir -p "${2:?output directory}" && realpath "$2")
work=$(mktemp -d /tmp/intercom-call.XXXXXX)
pids=()
daemon=""
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
export HOME=$work/home XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state SWIFT_BACKTRACE=enable=no
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

fail() { echo "valgrind-call: $*" >&2; exit 1; }
# Waits until FILE has a line matching PATTERN; sanitizers make everything a few times slower.
wait_for() {
    local file=$1 pattern=$2 seconds=$3
    for _ in $(seq $((seconds * 10))); do
        grep -q -- "$pattern" "$file" 2>/dev/null && return 0
        [ -z "$daemon" ] || kill -0 "$daemon" 2>/dev/null || fail "the daemon exited early (see $out/daemon.err)"
        sleep 0.1
    done
    fail "no '$pattern' in $(basename "$file") after ${seconds}s"
}

# The panel whose CGI opens the door (no call from it).
"$bin" simulate-panel --events json >"$work/doors.out" 2>"$work/doors.err" &
pids+=($!)
wait_for "$work/doors.out" http_listening 30
url=$(sed -n 's/.*"event":"http_listening".*"url":"\([^"]*\)".*/\1/p' "$work/doors.out")

cat >"$work/config.ini" <<INI
[sip]
listen = udp:127.0.0.1:0
[panel porch]
url = $url
user = admin
password = admin
match = sip:100001@
auto_answer = on
open = http
[daemon]
socket = $work/control.sock
[journal]
path = $work/journal
INI
chmod 600 "$work/config.ini"

    "$bin" daemon --config "$work/config.ini" --events json >"$out/events.jsonl" 2>"$out/daemon.err" &
daemon=$!
pids+=($daemon)
wait_for "$out/events.jsonl" '"event":"started"' 60
port=$(sed -n 's/.*"event":"started".*"udp:127.0.0.1:\([0-9]*\)".*/\1/p' "$out/events.jsonl")

# The panel that rings, with audio and H.264 video.
"$bin" simulate-panel --events json --call "sip:intercom@127.0.0.1:$port" >"$work/ring.out" 2>"$work/ring.err" &
pids+=($!)
wait_for "$out/events.jsonl" '"event":"call_answered"' 30
sleep 5  # media and video flow through the daemon for a while
"$bin" ctl open --config "$work/config.ini" >"$work/open.out" 2>&1 || fail "ctl open: $(cat "$work/open.out")"
wait_for "$out/events.jsonl" '"event":"door_opened"' 30
"$bin" ctl hangup --config "$work/config.ini" >"$work/hangup.out" 2>&1 || fail "ctl hangup: $(cat "$work/hangup.out")"
wait_for "$out/events.jsonl" '"event":"call_ended"' 30
kill -TERM "$daemon"
status=1
for _ in $(seq 300); do
    if ! kill -0 "$daemon" 2>/dev/null; then wait "$daemon"; status=$?; break; fi
    sleep 0.1
done
[ "$status" -eq 0 ] || fail "the daemon exited $status after SIGTERM (see $out/daemon.err)"
echo "call.sh: answered, door opened, hung up, daemon exit 0 ($(grep -c peephole_frame "$out/events.jsonl") peephole frames)"
