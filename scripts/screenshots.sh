#!/usr/bin/env bash
# Screenshots of intercom's pictures in real terminals, under Xvfb:
#   kitty 0.26 (kitty graphics), xterm as a VT340 (sixel), xterm with TERM=xterm-256color (symbols);
#   watch (live RTSP), the demo ringing and in a call, and the kiosk with two of four panels ringing.
# Each terminal runs the real binary with --graphics auto against a simulated panel on loopback;
# the script fails unless auto detection picked the expected mode (read from the binary's own
# "graphics: MODE — reason" log line). Writes docs/screenshots/*.png.
# Not part of `make test`: it installs X11 packages and takes about a minute. `make screenshots`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${SCREENSHOTS_DIR:-$root/docs/screenshots}

packages=(xvfb xauth xterm kitty libgl1-mesa-dri imagemagick xdotool fonts-dejavu-core)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "screenshots: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

bin=${INTERCOM_BIN:-}
if [ -z "$bin" ]; then
  swift build
  bin=$root/.build/debug/intercom
fi

work=$(mktemp -d /tmp/intercom-shots.XXXXXX)
pids=()
cleanup() {
  # Only what this script started, newest first.
  for ((i=${#pids[@]}-1; i>=0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work" ${demo_tmp_kitty:+"$demo_tmp_kitty"} ${demo_tmp_sixel:+"$demo_tmp_sixel"}
}
trap cleanup EXIT

# A free X display number.
display=""
for n in $(seq 90 119); do
  if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then display=$n; break; fi
done
[ -n "$display" ] || { echo "screenshots: no free X display in :90–:119" >&2; exit 1; }
# -noreset: a terminal closing must not reset the server under the next one starting.
Xvfb ":$display" -screen 0 1280x800x24 +extension GLX -nolisten tcp -noreset >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done
export DISPLAY=":$display"
# kitty needs OpenGL 3.3: Mesa's llvmpipe gives it without a GPU.
export LIBGL_ALWAYS_SOFTWARE=1
# The terminals and intercom keep their state here, not in the user's home.
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" XDG_STATE_HOME="$work/state"
export XDG_RUNTIME_DIR="$work/run"
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_STATE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
unset TMUX STY NO_COLOR COLORTERM

"$bin" simulate-panel --http-port 0 >"$work/panel.log" 2>&1 &
pids+=($!)
url=""
for _ in $(seq 100); do
  url=$(sed -n 's/^http listening on \(http[^ ]*\).*/\1/p' "$work/panel.log")
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "screenshots: the simulated panel did not start: $(cat "$work/panel.log")" >&2; exit 1; }
# Its camera's live stream too, as `setup` writes it: watch then shows the live picture, not snapshots.
rtsp=$(sed -n 's/^rtsp listening on \(rtsp:[^ ]*\).*/\1/p' "$work/panel.log")
config="$work/config.ini"
printf '[panel porch]\nurl = %s\nuser = admin\npassword = admin\n%s\n' "$url" "${rtsp:+rtsp = $rtsp}" >"$config"
chmod 600 "$config"

kitty_cmd=(kitty --config NONE -o font_size=11 -o remember_window_size=no
           -o initial_window_width=100c -o initial_window_height=32c -o cursor_blink_interval=0)
xterm_common=(-fa "DejaVu Sans Mono" -fs 11 -geometry 100x32+0+0 -bg black -fg gray90)
sixel_cmd=(xterm -ti vt340 -xrm "XTerm*decTerminalID: vt340" -xrm "XTerm*numColorRegisters: 256" "${xterm_common[@]}")
plain_cmd=(xterm -tn xterm-256color "${xterm_common[@]}")

mkdir -p "$out"

# shot NAME EXPECTED-MODE LOG KEYS TERMINAL... -- COMMAND...
# Starts the terminal running COMMAND, waits for the binary's "graphics:" line in LOG,
# checks the mode, optionally types KEYS, and saves the window as NAME.png.
shot() {
  local name=$1 expected=$2 log=$3 keys=$4; shift 4
  local term=()
  while [ "$1" != "--" ]; do term+=("$1"); shift; done
  shift
  rm -f "$log"
  "${term[@]}" -e "$@" >"$work/$name.terminal.log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  local line=""
  for _ in $(seq 150); do
    # LOG may be a pattern (the demo's log lies in a folder it names itself): left unquoted.
    line=$(grep -a -h -m1 -o 'graphics: .*' $log 2>/dev/null | head -1 || true)
    [ -n "$line" ] && break
    sleep 0.1
  done
  if [[ "$line" != "graphics: $expected "* ]]; then
    echo "screenshots: $name: expected '$expected', the binary said: ${line:-nothing (see $log)}" >&2
    exit 1
  fi
  echo "screenshots: $name: $line"
  sleep 4  # the first pictures, and a demo call ringing
  local wid
  wid=$(xdotool search --onlyvisible --pid "$pid" 2>/dev/null | head -1 || true)
  [ -n "$wid" ] || wid=$(xdotool search --onlyvisible --class "${term[0]}" | head -1)
  # What must happen before the keys (panels ringing): a command in $before_keys.
  if [ -n "${before_keys:-}" ]; then eval "$before_keys"; sleep 3; fi
  if [ -n "$keys" ]; then
    # XTEST keys go to the window under the pointer (no window manager here).
    xdotool mousemove --window "$wid" 20 20 key --delay 200 $keys
    sleep 3
  fi
  # The picture must be there: the window's middle is neither blank nor one colour.
  local tries=0 look=""
  while :; do
    import -window "$wid" "$work/$name.png"
    look=$(convert "$work/$name.png" -gravity center -crop 50%x50%+0+0 +repage -colorspace gray \
             -format '%[fx:mean > 0.1 && standard_deviation > 0.05 ? 1 : 0] mean %[fx:mean] sd %[fx:standard_deviation]' info:)
    [[ "$look" == 1* ]] && break
    tries=$((tries + 1))
    if [ "$tries" -ge 5 ]; then
      cp "$work/$name.png" "$out/$name.failed.png"
      echo "screenshots: $name: no picture in the window ($look); see $out/$name.failed.png" >&2
      tail -5 "$work/$name.terminal.log" >&2 || true
      exit 1
    fi
    echo "screenshots: $name: no picture yet ($look), looking again" >&2
    sleep 1
  done
  # Shown in the README: under 150 KB; a 256-colour palette if the full one is larger.
  convert "$work/$name.png" -strip "$out/$name.png"
  if [ "$(stat -c %s "$out/$name.png")" -gt 150000 ]; then
    convert "$work/$name.png" -strip -colors 256 "PNG8:$out/$name.png"
  fi
  echo "screenshots: wrote $out/$name.png ($(( $(stat -c %s "$out/$name.png") / 1024 )) KB)"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  sleep 0.5
}

watch_log="$work/watch.log"
watch=(sh -c "exec '$bin' watch porch --config '$config' --log-level info 2>>'$watch_log'")
tui_log="$XDG_STATE_HOME/intercom/tui.log"
# The demo keeps its state, tui.log included, in a private folder under $TMPDIR, and shows that
# folder in its title: one short TMPDIR per shot.
demo_tmp_kitty=$(mktemp -d /tmp/is.XXXX) demo_tmp_sixel=$(mktemp -d /tmp/is.XXXX)
demo_options=(demo --log-level info --no-ring --no-bell --no-notify)
demo_kitty=(env TMPDIR="$demo_tmp_kitty" "$bin" "${demo_options[@]}")
demo_sixel=(env TMPDIR="$demo_tmp_sixel" "$bin" "${demo_options[@]}")

# The kiosk: four simulated panels (--count) on free ports; panel-02 then panel-03 ring, Tab marks
# the second in the queue, and the key bar names it ("a answer panel-03").
sip_port=$(python3 -c 'import socket
for _ in range(50):
    t = socket.socket(); t.bind(("127.0.0.1", 0)); p = t.getsockname()[1]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try: u.bind(("127.0.0.1", p)); print(p); break
    except OSError: pass')
mkfifo "$work/ring"
"$bin" simulate-panel --count 4 --call "sip:intercom@127.0.0.1:$sip_port" <"$work/ring" >"$work/panels.log" 2>&1 &
pids+=($!)
exec {ring}>"$work/ring"
for _ in $(seq 100); do grep -q '^panels ready' "$work/panels.log" && break; sleep 0.1; done
grep -q '^panels ready' "$work/panels.log" || { echo "screenshots: the simulated panels did not start: $(cat "$work/panels.log")" >&2; exit 1; }
kiosk_config="$work/kiosk.ini"
{
  printf '[sip]\nlisten = udp:127.0.0.1:%s\n\n' "$sip_port"
  sed -n 's/^panel \([^ ]*\) http \([^ ]*\) .* from sip:\([0-9]*\)@.*/[panel \1]\nurl = \2\nuser = admin\npassword = admin\nmatch = sip:\3@\n/p' "$work/panels.log"
} >"$kiosk_config"
chmod 600 "$kiosk_config"
kiosk=("$bin" tui --kiosk --config "$kiosk_config" --log-level info --no-bell --no-notify)

shot watch-kitty kitty "$watch_log" "" "${kitty_cmd[@]}" -- "${watch[@]}"
shot watch-sixel sixel "$watch_log" "" "${sixel_cmd[@]}" -- "${watch[@]}"
shot watch-symbols symbols "$watch_log" "" "${plain_cmd[@]}" -- "${watch[@]}"
shot tui-ringing-kitty kitty "$demo_tmp_kitty/intercom-demo*/state/intercom/tui.log" "" "${kitty_cmd[@]}" -- "${demo_kitty[@]}"
shot tui-call-sixel sixel "$demo_tmp_sixel/intercom-demo*/state/intercom/tui.log" "a" "${sixel_cmd[@]}" -- "${demo_sixel[@]}"
before_keys='echo "ring panel-02" >&$ring; sleep 1; echo "ring panel-03" >&$ring'
shot tui-kiosk-kitty kitty "$tui_log" "Tab" "${kitty_cmd[@]}" -- "${kiosk[@]}"
before_keys=""
echo "screenshots: done"
