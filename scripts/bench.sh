#!/usr/bin/env bash
# `make bench`: measures the release build and writes BENCHMARKS.md with the machine and date.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product intercom-bench >/dev/null
bin=".build/release"
work=$(mktemp -d /tmp/intercom-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
out=BENCHMARKS.md.new
{
  echo "# Benchmarks"
  echo
  echo "Written by \`make bench\` on $(date -u +'%Y-%m-%d %H:%M UTC')."
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
  echo "$(free -g | awk '/Mem:/ {print $2}') GiB, $(. /etc/os-release; echo "$PRETTY_NAME"), kernel $(uname -r)."
  echo "Build: \`swift build -c release\`, $(swift --version 2>/dev/null | head -1)."
  echo
  "$bin/intercom-bench" "$PWD/$bin/intercom" "$work" "${BENCH_CALLS:-20}"
} > "$out"
mv "$out" BENCHMARKS.md
cat BENCHMARKS.md
