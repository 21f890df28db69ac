#!/usr/bin/env bash
# Build (once) an arm64 Debian root for the real-root test of systemd/install.sh
# (tests/system/test_system_arm64.py), with mmdebstrap (or debootstrap, slower) and
# qemu-user-static.
#
#   tests/system/arm64/build-root.sh RELEASE CACHE_DIR
#
# Leaves CACHE_DIR/RELEASE/root, and CACHE_DIR/RELEASE/ready (the recipe it was
# built from) when the build finished; a root without a matching `ready` is
# rebuilt from scratch. The root is a minimal Raspberry Pi OS Lite look-alike:
# Debian's minbase with systemd, sudo and python3, but none of the packages
# install.sh asks apt for (it must install them itself); those are only
# downloaded into the root's apt cache, and apt's lists are kept, so a test run
# installs them without fetching them again (its apt-get update only asks
# whether the lists changed). The mirror is the one this machine's apt uses
# ($PEGS_DEBIAN_MIRROR overrides it).
set -Eeuo pipefail

# The CPU qemu-user emulates for the packages' scripts: a Cortex-A72, as in in-root.sh
# (qemu's default computes Trixie's pointer authentication in software; not the root's
# content, so not in RECIPE).
export QEMU_CPU=${PEGS_QEMU_CPU:-cortex-a72}

release=${1:?usage: build-root.sh RELEASE CACHE_DIR}
cache=${2:?usage: build-root.sh RELEASE CACHE_DIR}
dir=$cache/$release
root=$dir/root

# What the base root holds, and what is downloaded for install.sh to install.
BASE=systemd,systemd-sysv,sudo,python3,ca-certificates,iproute2,procps
PREFETCH="python3-venv python3-dev build-essential python3-spidev avahi-daemon"
RECIPE="arm64 $release minbase include=$BASE prefetch=$PREFETCH v1"

mirror() {
    if [[ -n ${PEGS_DEBIAN_MIRROR:-} ]]; then echo "$PEGS_DEBIAN_MIRROR"; return; fi
    local f url
    # deb822 .sources: the first URIs of a stanza that has a plain release suite
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -f $f ]] || continue
        url=$(awk 'BEGIN { RS = ""; FS = "\n" }
            { u = ""; s = ""
              for (i = 1; i <= NF; i++) {
                  if ($i ~ /^URIs:/) { split(substr($i, 6), w, " "); u = w[1] }
                  if ($i ~ /^Suites:/) s = $i
              }
              if (u != "" && s !~ /-security/) { print u; exit } }' "$f")
        [[ -n $url ]] && { echo "$url"; return; }
    done
    # one-line sources.list
    url=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }')
    [[ -n $url ]] || { echo "build-root.sh: no Debian mirror in /etc/apt/sources.list*; set PEGS_DEBIAN_MIRROR" >&2; exit 2; }
    echo "$url"
}

cached() { [[ -f $dir/ready && $(cat "$dir/ready") == "$RECIPE" && -x $root/usr/bin/python3 ]]; }
if cached; then
    echo "arm64 $release root: cached in $root"
    exit 0
fi
mkdir -p "$cache"
# One build at a time per release (a second test run waits, then finds it cached),
# in a mount namespace of its own: debootstrap's second stage mounts /proc and
# /sys in the root, and those must vanish with it, never be left under the cache.
if [[ ${PEGS_BUILD_ROOT_INSIDE:-} != 1 ]]; then
    exec env PEGS_BUILD_ROOT_INSIDE=1 flock "$cache/.lock-$release" \
        unshare --mount --propagation private -- "$0" "$@"
fi
if cached; then
    echo "arm64 $release root: cached in $root (built meanwhile)"
    exit 0
fi

url=$(mirror)
echo "arm64 $release root: building in $root from $url (several minutes under emulation)"
start=$SECONDS
rm -rf --one-file-system "$dir"
mkdir -p "$dir"
if command -v mmdebstrap >/dev/null && [[ ${PEGS_ROOT_BUILDER:-} != debootstrap ]]; then
    # mmdebstrap resolves and unpacks with this machine's own apt and dpkg and runs only the
    # packages' scripts emulated; debootstrap's second stage runs its perl and shell
    # emulated too, and took over an hour for Trixie at load 20 (mmdebstrap: minutes)
    mmdebstrap --mode=root --variant=minbase --architectures=arm64 --include="$BASE" \
        "$release" "$root" "$url"
    echo "  mmdebstrap done after $((SECONDS - start)) s"
else
    debootstrap --arch=arm64 --variant=minbase --foreign --include="$BASE" "$release" "$root" "$url"
    echo "  first stage done after $((SECONDS - start)) s; second stage (emulated)"
    # PATH: the host's may name directories the root doesn't have
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin /debootstrap/debootstrap --second-stage
    echo "  second stage done after $((SECONDS - start)) s"
fi

# apt's sources: the same mirror, with the release's updates and security suites
sec=${url%/debian}/debian-security
[[ $sec == "$url" ]] && sec=""
{
    echo "deb $url $release main"
    echo "deb $url $release-updates main"
    [[ -n $sec ]] && echo "deb $sec $release-security main"
} >"$root/etc/apt/sources.list"
# No daemon may start inside the root (a package's postinst would otherwise try)
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
echo pi-arm64 >"$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\tpi-arm64\n' >"$root/etc/hosts"
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    apt-get update -qq
# shellcheck disable=SC2086  # the list is words
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --download-only --no-install-recommends $PREFETCH
echo "$RECIPE" >"$dir/ready"
echo "arm64 $release root: built in $((SECONDS - start)) s ($(du -sh "$root" | cut -f1))"
