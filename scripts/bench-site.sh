#!/usr/bin/env bash
# `make bench`'s site section (issue 40): a private PostgreSQL 15 started in a temp folder on a free
# loopback port and stopped by its pid. Prints Markdown. Usage: bench-site.sh INTERCOM_BINARY WORK_DIR
# Measured: `intercom log --since 1d` on a site journal of 1 000 000 entries beside a lone desk's journal
# of as many; the journal's times parsed both ways; a switch seen across desks; the outage replay of
# 1 000 kept entries (a desk restarted with them in its outbox); idle CPU of 3 site desks × 64 panels
# beside a lone desk (intercom-bench, beside the intercom binary, runs it with its stub panels); a call
# forked by Kamailio to 3 desks, answered at B → A and C name B (intercom-bench too).
set -euo pipefail
intercom="$1"
work="$2/site"
pgbin=/usr/lib/postgresql/15/bin
[ -x "$pgbin/initdb" ] || { echo "bench-site: PostgreSQL 15 is not installed ($pgbin/initdb); apt-get install postgresql-15" >&2; exit 69; }
mkdir -p "$work"
runas=()
if [ "$(id -u)" = 0 ]; then runas=(/usr/bin/setpriv --reuid=postgres --regid=postgres --clear-groups --); chown postgres: "$work"; fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"${runas[@]}" "$pgbin/initdb" -D "$work/data" -A trust -U intercom >/dev/null
"${runas[@]}" "$pgbin/postgres" -D "$work/data" -k "$work" -p "$port" -c listen_addresses=127.0.0.1 -c fsync=on \
  >"$work/postgres.log" 2>&1 &
pgpid=$!
stop_pg() { kill "$pgpid" 2>/dev/null || true; wait "$pgpid" 2>/dev/null || true; }
trap stop_pg EXIT
for _ in $(seq 100); do "$pgbin/pg_isready" -q -h 127.0.0.1 -p "$port" && break; sleep 0.1; done
"$pgbin/createdb" -h 127.0.0.1 -p "$port" -U intercom site
url="postgresql://intercom@127.0.0.1:$port/site"
export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_STATE_HOME="$work/home/state" XDG_CONFIG_HOME="$work/home/config"
mkdir -p "$HOME"
printf '[site]\nurl = %s\ndesk = lobby\n' "$url" > "$work/site.ini"
"$intercom" site init --config "$work/site.ini" >/dev/null

# 1 000 000 entries over a year (one every 31.5 s): a day holds about 2 740 of them.
psql -q -h 127.0.0.1 -p "$port" -U intercom site <<'SQL'
INSERT INTO site_journal (id, desk, operator, at, kind, panel, missed, body)
SELECT md5(i::text)::uuid, (ARRAY['lobby','garage','security'])[1 + i % 3], NULL, t, 'door', 'entrance', false,
       jsonb_build_object('id', i, 'kind', 'door', 'time', to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                          'panel', 'entrance', 'door', 'main', 'method', 'http', 'ok', true)
FROM (SELECT i, now() - i * interval '31.5 seconds' AS t FROM generate_series(1, 1000000) AS i) AS rows;
ANALYZE site_journal;
SQL
# The lone desk's journal of as many entries, in the SQLite journal its own daemon made (started, then stopped by pid).
printf '[sip]\nlisten = udp:127.0.0.1:0\n' > "$work/lone.ini"
mkdir -p "$HOME/run"; chmod 700 "$HOME/run"
XDG_RUNTIME_DIR="$HOME/run" "$intercom" daemon --config "$work/lone.ini" --events json >"$work/lone-daemon.log" 2>&1 &
daemon=$!
for _ in $(seq 100); do grep -q '"event":"started"' "$work/lone-daemon.log" && break; sleep 0.1; done
kill "$daemon"; wait "$daemon" 2>/dev/null || true
journal=$(find "$HOME" -name journal.sqlite3 | head -1)
[ -n "$journal" ] || { echo "bench-site: the lone desk's daemon made no journal; its log: $(tail -3 "$work/lone-daemon.log")" >&2; exit 70; }
now=$(date +%s)
sqlite3 "$journal" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
  INSERT INTO entries(kind, time, panel, detail, method, ok) SELECT 'door', $now - i * 31.5, 'entrance', 'main', 'http', 1 FROM n;"

median_ms() { sort -n | awk '{a[NR]=$1} END {printf "%d\n", (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2)}'; }
time_log() { # config, extra args: the median of 7 runs in ms, and the lines of the last
  local config=$1; shift
  for _ in $(seq 7); do
    s=$(date +%s%N); "$intercom" log --since 1d "$@" --config "$config" > "$work/out.txt"; e=$(date +%s%N)
    echo $(( (e - s) / 1000000 ))
  done | median_ms
}
site_ms=$(time_log "$work/site.ini"); site_rows=$(wc -l < "$work/out.txt")
lone_ms=$(time_log "$work/lone.ini" --local); lone_rows=$(wc -l < "$work/out.txt")
echo "## A site's journal (issue 40)"
echo
echo "A private PostgreSQL 15 on loopback (this machine), started by the bench. \`intercom log --since 1d\` as a"
echo "terminal table, median of 7 runs, each a new process of the light \`intercom\` (the site's: one connection, the"
echo "schema's version checked, one query):"
echo
echo "| journal | entries | shown (1 day) | median | target |"
echo "|---|---|---|---|---|"
echo "| site (PostgreSQL, 3 desks) | 1 000 000 | $((site_rows - 1)) | ${site_ms} ms | ≤ 100 ms: $([ "$site_ms" -le 100 ] && echo met || echo '**missed**') |"
echo "| lone desk (SQLite) | 1 000 000 | $((lone_rows - 1)) | ${lone_ms} ms | as before |"
echo
bench="$(dirname "$intercom")/intercom-bench"
"$bench" "$intercom" "$work" 0 --rfc3339-only

# Desks as daemons: each in a home of its own (journal, state folder), the same panel.
desk_config() { # name [site: yes|no]
  printf '[sip]\nlisten = udp:127.0.0.1:0\nunknown_callers = reject\n\n[panel entrance]\nurl = http://127.0.0.1:9\nmatch = sip:100001@\n'
  [ "$2" = yes ] && printf '\n[site]\nurl = %s\ndesk = %s\n' "$url" "$1"
  return 0
}
pids=()
# Each daemon by the pid it wrote (its events' reader ends with it).
stop_desks() {
  for f in "$work"/*/daemon.pid; do [ -f "$f" ] && { kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; }; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done; pids=()
}
trap 'stop_desks; stop_pg' EXIT
start_desk() { # name site: its events go to $work/NAME/events (each line stamped with its arrival in ns)
  local name=$1 dir="$work/$1"
  mkdir -p "$dir/home"
  desk_config "$name" "$2" > "$dir/config.ini"
  mkdir -p "$dir/home/run"; chmod 700 "$dir/home/run"
  ( export HOME="$dir/home" XDG_DATA_HOME="$dir/home/data" XDG_STATE_HOME="$dir/home/state" XDG_CONFIG_HOME="$dir/home/config" \
      XDG_RUNTIME_DIR="$dir/home/run"
    echo "$BASHPID" > "$dir/daemon.pid"
    exec "$intercom" daemon --config "$dir/config.ini" --events json 2>"$dir/stderr" ) \
    | while IFS= read -r l; do echo "$(date +%s%N) $l"; done > "$dir/events" &
  pids+=($!)
  for _ in $(seq 150); do grep -q '"event":"started"' "$dir/events" 2>/dev/null && return 0; sleep 0.1; done
  echo "bench-site: desk $name did not start: $(tail -3 "$dir/stderr")" >&2; exit 70
}
ctl() { local dir="$work/$1"; shift
  XDG_RUNTIME_DIR="$dir/home/run" HOME="$dir/home" XDG_DATA_HOME="$dir/home/data" XDG_STATE_HOME="$dir/home/state" XDG_CONFIG_HOME="$dir/home/config" \
    "$intercom" ctl "$@" --config "$dir/config.ini" >/dev/null; }
policy_after() { # desk, since-ns, pattern: the first panel_policy at or after since matching pattern, in ms after since
  local dir="$work/$1" since=$2 pattern=$3
  for _ in $(seq 300); do
    t=$(awk -v s="$since" -v p="$pattern" '$1 >= s && /"event":"panel_policy"/ && $0 ~ p { print $1; exit }' "$dir/events")
    [ -n "$t" ] && { echo $(( (t - since) / 1000 )); return 0; }
    sleep 0.01
  done
  echo "bench-site: desk $1 saw no panel_policy" >&2; exit 70
}
start_desk A yes; start_desk B yes; start_desk lone no
site_us=(); lone_us=()
for round in 1 2 3 4 5; do
  for state in 2h off; do
    pattern=$([ "$state" = off ] && echo '"guest_until":null' || echo '"guest_until":"2')
    s=$(date +%s%N); ctl A guest "$state" --panel entrance; site_us+=("$(policy_after B "$s" "$pattern")")
    s=$(date +%s%N); ctl lone guest "$state" --panel entrance; lone_us+=("$(policy_after lone "$s" "$pattern")")
  done
done
site_sw=$(printf '%s\n' "${site_us[@]}" | median_ms); lone_sw=$(printf '%s\n' "${lone_us[@]}" | median_ms)
stop_desks
# Idle CPU: 3 desks of this site × 64 stub panels beside a lone desk of the same panels, all at once (intercom-bench).
idle_section=$("$bench" "$intercom" "$work" 0 --site-idle-only --site-url "$url" --site-window "${SITE_IDLE_WINDOW:-120}")

# The outage replay: 1 000 entries kept in A's outbox (as a desk restarted during an outage finds it),
# sent when A starts with the store up; from A's launch (its start included) to its site_reachable.
outbox="$work/A/home/state/intercom/site-outbox.jsonl"
mkdir -p "$(dirname "$outbox")"
for i in $(seq 1000); do
  printf '{"write":"append","entries":[{"site_id":"%s","kind":"door","time":"2026-12-01T10:00:00.000Z","panel":"entrance","door":"main","method":"http","ok":true,"desk":"A","desk_operator":null,"site_call":null,"rang_at":[],"claim":null,"missed":false}]}\n' "$(python3 -c 'import uuid; print(uuid.uuid4())')"
done > "$outbox"
chmod 600 "$outbox"
launched=$(date +%s%N)
start_desk A yes
for _ in $(seq 300); do grep -q '"event":"site_reachable"' "$work/A/events" && break; sleep 0.01; done
back=$(awk '/"event":"site_reachable"/ { print $1; exit }' "$work/A/events")
replayed=$(grep -o '"replayed":[0-9]*' "$work/A/events" | head -1 | cut -d: -f2)
replay_ms=$(( (back - launched) / 1000000 ))
kept=$(psql -qtA -h 127.0.0.1 -p "$port" -U intercom site -c "SELECT count(*) FROM site_journal WHERE desk = 'A'")
stop_desks
# A call Kamailio forks to 3 desks of this site, answered at B, 10 times (intercom-bench: Kamailio on loopback).
call_section=$("$bench" "$intercom" "$work" 10 --site-call-only --site-url "$url")

echo "Guest mode switched with \`ctl guest\` (5 rounds of on and off): at desk A → \`panel_policy\` at desk B"
echo "(through the store and its NOTIFY), beside a lone desk's own \`panel_policy\` for the same command; each from the"
echo "command's launch, so both include \`intercom ctl\` starting:"
echo
echo "| switch | samples | median | target |"
echo "|---|---|---|---|"
echo "| at A → seen at B | ${#site_us[@]} | $((site_sw / 1000)) ms | ≤ 200 ms: $([ $((site_sw / 1000)) -le 200 ] && echo met || echo '**missed**') |"
echo "| lone desk, its own | ${#lone_us[@]} | $((lone_sw / 1000)) ms | as before |"
echo
echo "The outage replay: $replayed of 1 000 entries kept in a desk's outbox sent in order when it starts with the store"
echo "up ($kept rows at the site afterwards): ${replay_ms} ms from the daemon's launch to its \`site_reachable\`, its"
echo "start included (target ≤ 2 s: $([ "$replay_ms" -le 2000 ] && echo met || echo '**missed**')). A lone desk keeps no outbox: nothing to replay."
echo
echo "$idle_section"
echo
echo "$call_section"
