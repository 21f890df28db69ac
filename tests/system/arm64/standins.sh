#!/usr/bin/env bash
# A local apt repository of stand-ins for the Raspberry Pi OS packages that
# Debian lacks (python3-lgpio, python3-rpi-lgpio, python3-rpi.gpio,
# python3-picamera2 and what they pull in), with their names and their
# dependencies, so that apt's behaviour in the arm64 root is real: what it
# installs, what conflicts, what it pulls in from Debian.
#
#   tests/system/arm64/standins.sh RELEASE OUT_DIR
#
# OUT_DIR gets the .deb files and a Packages index (a flat repository:
# "deb [trusted=yes] file:/PATH ./"). The stand-ins hold no code: each has
# /usr/share/doc/NAME/STAND-IN, and python3-lgpio an lgpio module whose
# import fails, saying what it is (so nothing mistakes it for the library).
set -Eeuo pipefail

release=${1:?usage: standins.sh RELEASE OUT_DIR}
out=${2:?usage: standins.sh RELEASE OUT_DIR}
case $release in
    bookworm) py=3.11 next=3.12 ;;
    trixie) py=3.13 next=3.14 ;;
    *) echo "standins.sh: unknown release $release" >&2; exit 2 ;;
esac

rm -rf "$out"
mkdir -p "$out"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT

# standin NAME VERSION FIELDS...: one binary package (arm64) with extra control fields
standin() {
    local name=$1 version=$2 dir=$build/$1
    shift 2
    mkdir -p "$dir/DEBIAN" "$dir/usr/share/doc/$name"
    {
        printf 'Package: %s\nVersion: %s\nArchitecture: arm64\nMaintainer: pegs-companion tests <tests@invalid>\n' "$name" "$version"
        printf 'Section: python\nPriority: optional\n'
        local f
        for f in "$@"; do printf '%s\n' "$f"; done
        printf 'Description: stand-in for Raspberry Pi OS'"'"'s %s (pegs-companion tests)\n' "$name"
        printf ' Same name, version and dependencies; no code.\n'
    } >"$dir/DEBIAN/control"
    printf 'stand-in for the Raspberry Pi OS package %s, made by tests/system/arm64/standins.sh\n' "$name" \
        >"$dir/usr/share/doc/$name/STAND-IN"
}

standin liblgpio1 0.2.2-1~rpt1 "Depends: libc6 (>= 2.34)"
standin python3-lgpio 0.2.2-1~rpt1 "Depends: python3 (<< $next), python3 (>= $py~), liblgpio1 (>= 0.2.2), libc6 (>= 2.17)"
mkdir -p "$build/python3-lgpio/usr/lib/python3/dist-packages"
printf 'raise ImportError("stand-in for Raspberry Pi OS'"'"'s python3-lgpio (pegs-companion tests): no GPIO here")\n' \
    >"$build/python3-lgpio/usr/lib/python3/dist-packages/lgpio.py"
standin python3-rpi-lgpio 0.6-1~rpt1 "Depends: python3:any, python3-lgpio (>= 0.2.0.0)" \
    "Conflicts: python3-rpi.gpio" "Replaces: python3-rpi.gpio"
standin python3-rpi.gpio 0.7.1~a4-1+b4 "Depends: python3 (<< $next), python3 (>= $py~), libc6 (>= 2.34)"
standin libcamera0.3 0.3.2+rpt20241119-1 "Depends: libc6 (>= 2.34), libstdc++6 (>= 12)"
standin python3-libcamera 0.3.2+rpt20241119-1 "Depends: python3 (<< $next), python3 (>= $py~), libcamera0.3 (>= 0.3.2)"
standin python3-simplejpeg 1.6.6-1~rpt1 "Depends: python3 (<< $next), python3 (>= $py~), python3-numpy"
standin python3-picamera2 0.3.24-1 \
    "Depends: python3:any, python3-libcamera, python3-numpy, python3-pil, python3-simplejpeg, python3-piexif, python3-prctl"

for dir in "$build"/*/; do
    dpkg-deb --root-owner-group --build "$dir" "$out" >/dev/null
done
if command -v dpkg-scanpackages >/dev/null; then
    (cd "$out" && dpkg-scanpackages --multiversion . /dev/null 2>/dev/null >Packages)
else
    (cd "$out" && apt-ftparchive packages . >Packages)
fi
echo "stand-ins for $release: $(grep -c '^Package:' "$out/Packages") packages in $out"
