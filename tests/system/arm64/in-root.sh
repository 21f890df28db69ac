#!/usr/bin/env bash
# Run a command as root inside an arm64 root: the cached root (read-only, the
# lower layer of an overlay) with this test's changes in UPPER, in a mount and
# UTS namespace of its own, so nothing is left mounted when it ends and the
# root can't rename this machine (`hostname`) or see its /run.
#
#   tests/system/arm64/in-root.sh LOWER UPPER WORK MERGED [--bind SRC DST]... [--booted] -- CMD [ARGS...]
#
# Each --bind mounts host directory SRC read-only at DST in the root.
# --booted makes /run/systemd/system, as on a system booted with systemd (the
# test puts a stand-in systemctl first on the PATH then). /proc,
# /sys and /dev are the host's; /run is a fresh tmpfs as at boot (no
# /run/systemd/system: systemd is not PID 1 here); the host's CA bundle
# replaces the root's, for pip's HTTPS through this machine's network.
set -Eeuo pipefail

if [[ ${1:-} != --inside ]]; then
    exec unshare --mount --uts --fork --propagation private -- "$0" --inside "$@"
fi
shift
lower=$1 upper=$2 work=$3 merged=$4
shift 4
binds=()
booted=0
while [[ $# -gt 0 && $1 != -- ]]; do
    case $1 in
        --bind) binds+=("$2" "$3"); shift 3 ;;
        --booted) booted=1; shift ;;
        *) echo "in-root.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ ${1:-} == -- ]] || { echo "in-root.sh: no command (-- CMD)" >&2; exit 2; }
shift

# The arm64 CPU that qemu-user emulates (QEMU_CPU; no effect on an arm64 machine): a
# Cortex-A72, the Raspberry Pi 4's. qemu's default, "max", has pointer authentication and
# computes it in software, and Trixie's packages are built with branch protection (PAC
# instructions at every function's entry and exit): its Python ran a loop 16 times slower
# there (25.0 s of CPU against 1.6 s with the A72, qemu 7.2). The A72 has no PAC, so those
# instructions are the no-ops they are on a Pi 4; Bookworm's packages have none.
export QEMU_CPU=${PEGS_QEMU_CPU:-cortex-a72}

mkdir -p "$upper" "$work" "$merged"
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$upper,workdir=$work" "$merged"
mount -t proc proc "$merged/proc"
mount --rbind /sys "$merged/sys"
mount --rbind /dev "$merged/dev"
mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs "$merged/run"
((booted)) && mkdir -p "$merged/run/systemd/system"
[[ -f /etc/ssl/certs/ca-certificates.crt && -f $merged/etc/ssl/certs/ca-certificates.crt ]] &&
    mount --bind -o ro /etc/ssl/certs/ca-certificates.crt "$merged/etc/ssl/certs/ca-certificates.crt"
cp /etc/resolv.conf "$merged/run/resolv.conf"
[[ -L $merged/etc/resolv.conf || -f $merged/etc/resolv.conf ]] &&
    mount --bind -o ro "$merged/run/resolv.conf" "$merged/etc/resolv.conf"
for ((i = 0; i < ${#binds[@]}; i += 2)); do
    mkdir -p "$merged${binds[i + 1]}"
    mount --bind -o ro "${binds[i]}" "$merged${binds[i + 1]}"
done
exec chroot "$merged" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin QEMU_CPU="$QEMU_CPU" \
    HOME=/root LC_ALL=C.UTF-8 TERM=dumb "$@"
