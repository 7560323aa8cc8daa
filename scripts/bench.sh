#!/usr/bin/env bash
# `make bench`: measures the release build and writes BENCHMARKS.md with the machine and date.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product intercom-bench >/dev/null
bin=".build/release"
# The build from before the caller check by source address (issue 10), measured beside this one.
export BENCH_BASELINE_REV="${BENCH_BASELINE_REV:-20927fd}"
if [ "${BENCH_BASELINE_REV}" != none ]; then
  if [ ! -d .build-baseline/src ]; then
    git worktree add -f --detach .build-baseline/src "$BENCH_BASELINE_REV" >/dev/null
  else
    git -C .build-baseline/src checkout -q --detach "$BENCH_BASELINE_REV"
  fi
  (cd .build-baseline/src && swift build -c release --product intercom-full >/dev/null \
    && swift build -c release --product intercom >/dev/null)
  export BENCH_BASELINE="$PWD/.build-baseline/src/.build/release/intercom"
fi
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
  # A site of desks on a private PostgreSQL 15 (issue 40), beside a lone desk in the same run.
  scripts/bench-site.sh "$PWD/$bin/intercom" "$work"
} > "$out"
mv "$out" BENCHMARKS.md
cat BENCHMARKS.md
