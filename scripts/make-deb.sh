#!/usr/bin/env bash
# Builds the Debian package from a finished build (BUILT, default .build/release) into .build/deb:
# the `make install` tree under /usr, the Swift runtime libraries the binaries load kept private in
# /usr/lib/intercom (the toolchain's runtime is no Debian package), dependencies from
# dpkg-shlibdeps, then lintian (errors fail the build). OUT names another output folder; LEVEL the gzip
# level (6; the package test asks 1: its debug build is ~100 MB, and the level is not what it checks).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILT=${BUILT:-.build/release}
OUT=${OUT:-.build/deb}
start=$(date +%s)
note() { echo "make-deb: $* ($(( $(date +%s) - start )) s)" >&2; }
version=$("$BUILT/intercom" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
stage=$(mktemp -d "${TMPDIR:-/tmp}/intercom-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root="$stage/intercom"

make --no-print-directory -s install-files BUILT="$BUILT" DESTDIR="$root" PREFIX=/usr \
  USERUNITDIR=/usr/lib/systemd/user ZSHCOMPDIR=/usr/share/zsh/vendor-completions >/dev/null

# The Swift runtime: every library the binaries load from outside the system's folders.
private=/usr/lib/intercom
mkdir -p "$root$private"
for bin in intercom intercom-full intercom-sim; do
  ldd "$BUILT/$bin" | awk '$3 ~ /^\// {print $3}'
done | sort -u | while read -r lib; do
  case $lib in
    /lib/*|/lib64/*|/usr/lib/*) ;;   # the system's, from Debian packages: a dependency
    *) install -m 644 "$lib" "$root$private/" ;;
  esac
done
for file in "$root"/usr/bin/* "$root$private"/*.so*; do
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$file"
  patchelf --set-rpath "$private" "$file"
done

note "runtime copied and stripped"
doc="$root/usr/share/doc/intercom"
install -d "$doc"
cat > "$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: intercom

Files: *
Copyright: 2026 the intercom authors
License: GPL-3+

Files: usr/lib/intercom/*
Copyright: Apple Inc. and the Swift project authors
License: Apache-2.0 with Runtime Library Exception
 The Swift runtime, standard library and Foundation that the binaries load.
 .
 On Debian systems the Apache License 2.0 is in /usr/share/common-licenses/Apache-2.0.

License: GPL-3+
 This program is free software: you can redistribute it and/or modify it under the terms of the
 GNU General Public License as published by the Free Software Foundation, either version 3 of the
 License, or (at your option) any later version.
 .
 On Debian systems the full text of the GNU General Public License version 3 is in
 /usr/share/common-licenses/GPL-3.
COPYRIGHT
printf 'intercom (%s) unstable; urgency=medium\n\n  * Built from the intercom repository.\n\n -- intercom maintainers <intercom@example.org>  %s\n' \
  "$version" "$(date -R -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")" \
  | gzip -9n > "$doc/changelog.gz"
gzip -9n "$root"/usr/share/man/man1/intercom.1 "$root"/usr/share/man/man5/intercom-config.5
chmod -R u=rwX,go=rX "$root"

# Dependencies: dpkg-shlibdeps needs a debian/control to run from; the private runtime is ours.
mkdir -p "$stage/debian"
printf 'Source: intercom\n\nPackage: intercom\nArchitecture: any\n' > "$stage/debian/control"
shlibs=$(cd "$stage" && dpkg-shlibdeps -O -l"intercom$private" -e intercom/usr/bin/intercom \
  -e intercom/usr/bin/intercom-full -e intercom/usr/bin/intercom-sim \
  $(cd "$stage" && ls intercom$private/*.so* | sed 's/^/-e /') 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
note "dependencies: $shlibs"
# libavformat and libmosquitto are loaded with dlopen when live video or `[mqtt]` is first used
# (DECISIONS.md "Lean idle"), so dpkg-shlibdeps cannot see them: recommend the packages holding the
# sonames this build loads (libavformat's major version is the headers').
dlopened=$(for so in "libavformat.so.$(pkg-config --modversion libavformat | cut -d. -f1)" libmosquitto.so.1; do
  dpkg -S "*/$so" 2>/dev/null | head -1 | cut -d: -f1
done | paste -sd, | sed 's/,/, /g')
note "loaded on first use: $dlopened"
# libcurl, SQLite, libturbojpeg and libchafa are loaded with dlopen too, when first used (DECISIONS.md
# "libcurl by dlopen", "The light binary maps only what its command uses"), so dpkg-shlibdeps cannot see
# them; but panels, operators, the journal and pictures need them: dependencies, not recommendations, on
# the packages holding the sonames the loaders open. libcurl 7.85: CURLOPT_PROTOCOLS_STR.
for wanted in "libcurl.so.4 (>= 7.85.0)" libsqlite3.so.0 libturbojpeg.so.0 libchafa.so.0; do
  so=${wanted%% *}; minimum=${wanted#"$so"}
  package=$( (dpkg -S "*/$so" 2>/dev/null || true) | head -1 | cut -d: -f1)
  [ -n "$package" ] || { echo "make-deb: no installed package holds $so (install the Debian package that has it)" >&2; exit 1; }
  case ", $shlibs" in
    *", $package "*|*", $package,"*|*", $package") ;;
    *) shlibs="$package$minimum, $shlibs" ;;
  esac
done
note "dependencies with the libraries loaded on first use: $shlibs"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)

mkdir -p "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: intercom
Version: $version
Architecture: $arch
Maintainer: intercom maintainers <intercom@example.org>
Installed-Size: $size
Depends: $shlibs
Recommends: mediastreamer2-plugin-openh264${dlopened:+, $dlopened}
Suggests: pulseaudio | pipewire-pulse
Section: comm
Priority: optional
Homepage: https://github.com/rosteleset
Description: terminal SIP intercom client for Beward door panels
 A SIP softphone for Beward IP door panels and SmartYard operators: it
 recognises which panel calls, shows who is at the door in the terminal,
 answers with two-way audio and the panel's video, and opens the door.
 It runs as a full-screen terminal client and as a daemon (a systemd user
 unit) for scripts and home automation, with a control socket, a journal
 and hooks.
CONTROL
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$OUT"
deb="$OUT/intercom_${version}_${arch}.deb"
fakeroot dpkg-deb --build -Zgzip -z"${LEVEL:-6}" "$root" "$deb" >/dev/null
note "built $deb"
echo "$deb"
# lintian exits non-zero on errors; warnings are printed and allowed.
lintian --fail-on error --suppress-tags no-manual-page "$deb" >&2
