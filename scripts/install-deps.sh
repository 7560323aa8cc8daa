#!/usr/bin/env bash
# Installs the Debian packages intercom builds, tests and demos with.
# Only what is missing is installed, so a second run costs a dpkg query.
set -euo pipefail

packages=(
  # build: one C library per concern, each through its own module
  pkg-config
  # panel HTTP API, snapshots, simulated panel
  libcurl4-openssl-dev libturbojpeg0-dev libmicrohttpd-dev
  liblinphone-dev libbctoolbox-dev libmediastreamer-dev
  # the TUI
  libncurses-dev
  # the event journal; sd_notify for the systemd unit
  libsqlite3-dev libsystemd-dev
  # a site of several desks: libpq to build; PostgreSQL 15 for the tests (a private server per suite)
  libpq-dev postgresql-15
  # MQTT for Home Assistant; the broker and its clients for the tests and the bench
  libmosquitto-dev mosquitto mosquitto-clients
  # H.264, what Beward panels send; without it calls silently go audio-only
  mediastreamer2-plugin-openh264
  # live video (RTSP from panels, HLS from operator cameras): FFmpeg's libraries, the only decoder
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev
  # the simulated panel's RTSP camera (intercom-sim only): gst-rtsp-server and appsrc to build; at run time
  # videoconvert/videoscale (plugins-base), rtph264pay (plugins-good) and x264enc (plugins-ugly), listed below
  libgstrtspserver-1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer1.0-dev
  # terminal graphics: libchafa (symbols, sixel) and its glib headers; the chafa CLI for the bench comparison
  libchafa-dev libglib2.0-dev chafa
  # zlib for compressed kitty frames
  zlib1g-dev
  # tests: real SIP peers and a terminal to drive
  sip-tester linphone-cli kamailio tmux sox
  # security tests: a TLS registrar, certificates, the systemd unit, W+X mappings, a client of another uid
  kamailio-tls-modules openssl systemd strace python3
  # notification tests: a private session bus and a notification server stub (python3-gi's Gio)
  dbus-daemon
  # video tests: a real RTSP server (gst-rtsp-server through Debian's python3) with x264enc
  python3-gi gir1.2-gst-rtsp-server-1.0 gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
  # video tests: the ffmpeg CLI writes the HLS folder and the one-frame preview served over HTTP
  ffmpeg
  # bench: baresip idles beside us for comparison
  baresip-core
  # make install / make deb and their tests: man pages (man -l), the three shells' completions,
  # the Debian package (dpkg-deb, dpkg-shlibdeps, lintian, fakeroot) and its private Swift runtime's RUNPATH
  man-db groff-base bash-completion zsh fish dpkg-dev fakeroot lintian patchelf
  # sound tests: a private PulseAudio server with null sinks; pactl and parec watch where calls play
  pulseaudio pulseaudio-utils
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
