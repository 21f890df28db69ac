#!/usr/bin/env bash
# Install the Pegs and Jokers companion as a service on Raspberry Pi OS
# (Bookworm or Trixie, Lite or desktop; Pi 4 or Pi 5, older Pis and the Zero 2 W too).
#
#   sudo systemd/install.sh [--camera] [--no-pwm-root] [--port 8000] [--hostname pegs]
#   systemd/install.sh --dry-run          # show every step, change nothing
#   systemd/install.sh --root DIR         # work on a fake root (tests)
#
# Every step checks first and only acts when something is missing or
# different, so running it again (e.g. after `git pull`, to update) only does
# what changed. See systemd/README.md for what each step does and why.
set -Eeuo pipefail

readonly APP=pegs-companion
readonly SVC_USER=pegs
readonly SVC_GROUPS=(gpio spi i2c video)
readonly PREFIX=/opt/pegs-companion
readonly VENV=$PREFIX/venv
readonly CONF_DIR=/etc/pegs-companion
readonly CONF_FILE=$CONF_DIR/config.toml
readonly DATA_DIR=/var/lib/pegs-companion
readonly UNIT_DIR=/etc/systemd/system
readonly UNIT=$APP.service
readonly DROPIN_DIR=$UNIT_DIR/$UNIT.d
readonly UDEV_RULE=/etc/udev/rules.d/99-$APP-pio.rules
readonly MODULES_CONF=/etc/modules-load.d/$APP.conf
readonly AVAHI_SERVICE=/etc/avahi/services/$APP.service
readonly PEGS_LINK=/usr/local/bin/pegs
readonly STAMP=$PREFIX/installed-from
# Left by --no-pwm-root, so a later plain run keeps that choice instead of the Pi 1-4 default.
readonly NO_PWM_ROOT_MARK=$PREFIX/no-pwm-root
# The project's files that make the installed package (copied to $PREFIX/src).
readonly PROJECT_FILES=(pyproject.toml README.md companion hardware vision web)

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE=$(dirname "$SCRIPT_DIR")
ROOT=""             # --root: prefix of every file path; commands are printed, not run
DRY_RUN=0           # --dry-run: print every step, change nothing
CAMERA=0            # --camera: picamera2 and OpenCV from apt
PWM_ROOT=auto       # --pwm-root / --no-pwm-root: install / remove the run-as-root drop-in
                    # (auto: yes on a Pi 1-4, whose LEDs need it; no elsewhere)
PORT=""             # --port: the port in a new config.toml and in the mDNS advert
HOST_NAME=pegs      # --hostname: the Pi's name on the network, NAME.local
SET_HOSTNAME=1      # --keep-hostname: leave the hostname alone
EXTRAS=auto         # --extras: pip extras (default: pi, plus pi5 on a Pi 5)
START=1             # --no-start: enable the service but don't (re)start it

STEP=preflight      # the step running now, named by the error trap
CHANGED=()          # steps that changed something
REBOOT_WHY=()       # what needs a reboot to take effect
RESTART=0           # the running service needs a restart
PI_MODEL=""
PI5=0
OS_CODENAME=""

usage() {
    cat <<EOF
Usage: sudo $0 [options]

Installs the Pegs and Jokers companion as the systemd service $UNIT:
apt packages, the system user '$SVC_USER', a virtual environment in $VENV,
SPI and I2C, the Pi 5 LED udev rule, $CONF_FILE (only if missing), the
name $HOST_NAME.local (mDNS), and the service itself. Safe to run again.

Options:
  --dry-run          print every step and what it would do; change nothing
  --root DIR         work on a fake root: file paths under DIR, commands printed
                     but not run (for tests; combine with --dry-run to write nothing)
  --source DIR       the project to install (default: $SOURCE)
  --camera           also install the camera stack from apt (python3-picamera2,
                     python3-opencv, python3-numpy)
  --pwm-root         run the service as root (the default on a Pi 1-4: its LEDs
                     on GPIO18 are driven by PWM DMA through /dev/mem, root only);
                     installs pwm-root.conf and dtparam=audio=off
  --no-pwm-root      run as the '$SVC_USER' user (removes that drop-in): on a Pi 1-4
                     the LEDs then can't light (set wiring.leds.driver = "mock")
  --port N           port for a new config file and the mDNS advert
                     (default: the one in $CONF_FILE, else 8000)
  --hostname NAME    the Pi's hostname, reachable as NAME.local (default: pegs)
  --keep-hostname    don't change the hostname
  --extras LIST      pip extras to install, comma-separated (default: pi on a
                     Pi 1-4, pi,pi5 on a Pi 5, none elsewhere)
  --no-start         enable the service but don't start or restart it
  -h, --help         this help
EOF
}

die() { printf '%s: %s\n' "${0##*/}" "$*" >&2; exit 2; }

while (($#)); do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --root) [[ $# -ge 2 ]] || die "--root needs a directory"; ROOT=$2; shift ;;
        --root=*) ROOT=${1#*=} ;;
        --source) [[ $# -ge 2 ]] || die "--source needs a directory"; SOURCE=$2; shift ;;
        --source=*) SOURCE=${1#*=} ;;
        --camera) CAMERA=1 ;;
        --pwm-root) PWM_ROOT=yes ;;
        --no-pwm-root) PWM_ROOT=no ;;
        --port) [[ $# -ge 2 ]] || die "--port needs a number"; PORT=$2; shift ;;
        --port=*) PORT=${1#*=} ;;
        --hostname) [[ $# -ge 2 ]] || die "--hostname needs a name"; HOST_NAME=$2; shift ;;
        --hostname=*) HOST_NAME=${1#*=} ;;
        --keep-hostname) SET_HOSTNAME=0 ;;
        --extras) [[ $# -ge 2 ]] || die "--extras needs a list (may be empty)"; EXTRAS=$2; shift ;;
        --extras=*) EXTRAS=${1#*=} ;;
        --no-start) START=0 ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown option: $1 (see --help)" ;;
    esac
    shift
done

if [[ -n $ROOT ]]; then
    [[ -d $ROOT ]] || die "--root $ROOT: no such directory"
    ROOT=$(cd "$ROOT" && pwd)
    [[ $ROOT == / ]] && ROOT=""
fi
# Commands are run only on the real system and not in a dry run; in --root
# mode they are printed.
EXECUTE=1
[[ -n $ROOT || $DRY_RUN == 1 ]] && EXECUTE=0
# A fake root that is written to (--root without --dry-run).
FAKE=0
[[ -n $ROOT && $DRY_RUN == 0 ]] && FAKE=1

# --- output and error handling ----------------------------------------------

on_error() {
    local rc=$? cmd=$BASH_COMMAND n=${#FUNCNAME[@]}
    # The line of the script's own steps: the outermost call below main, so a
    # failure inside a helper (run, write, ...) names the line that called it.
    local line=${BASH_LINENO[n - 2]}
    # In a subshell ($(...)) leave the report to the main shell.
    [[ $BASHPID == "$$" ]] || exit "$rc"
    trap - ERR
    # Inside run: the command it was running, not its "$@".
    [[ ${FUNCNAME[1]:-} == run && -n $RUN_TEXT ]] && cmd=$RUN_TEXT
    {
        printf '\n%s: step "%s" FAILED (exit status %s)\n' "${0##*/}" "$STEP" "$rc"
        printf '  command: %s\n  at line %s of %s\n' "$cmd" "$line" "$0"
        printf 'Nothing after this step was done. Fix the cause and run the script again:\n'
        printf 'the steps that are already done are skipped.\n'
    } >&2
    exit "$rc"
}
RUN_TEXT=""
trap on_error ERR

step() { STEP=$1; printf '==> [%s] %s\n' "$1" "$2"; }
ok() { printf '    ok: %s\n' "$*"; }
skip() { printf '    skipped: %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }
warn() { printf '    warning: %s\n' "$*" >&2; }
# The step changed (or, in a dry run, would change) something.
changed() {
    local n=${#CHANGED[@]}
    ((n > 0)) && [[ ${CHANGED[n - 1]} == "$STEP" ]] || CHANGED+=("$STEP")
    if ((DRY_RUN)); then printf '    would change: %s\n' "$*"; else printf '    changed: %s\n' "$*"; fi
}

# A word as the shell would need it.
shquote() {
    if [[ $1 =~ ^[][A-Za-z0-9_./:=,@%+-]+$ ]]; then
        printf '%s' "$1"
    else
        printf "'%s'" "${1//\'/\'\\\'\'}"
    fi
}

# run CMD ARGS...: a command that changes the system. Printed always, run only
# on the real system outside a dry run.
run() {
    local out="" word
    for word in "$@"; do out+="$(shquote "$word") "; done
    if ((EXECUTE)); then
        printf '    + %s\n' "${out% }"
        RUN_TEXT=${out% }
        "$@"
        RUN_TEXT=""
    elif ((DRY_RUN)); then
        printf '    would run: %s\n' "${out% }"
    else
        printf '    + %s   (fake root: not run)\n' "${out% }"
    fi
}

# fail MESSAGE: stop the step with one line that says what to do.
fail() {
    trap - ERR
    {
        printf '\n%s: step "%s" FAILED: %s\n' "${0##*/}" "$STEP" "$*"
        printf 'Nothing after this step was done; the steps before it are done and are skipped next time.\n'
    } >&2
    exit 1
}

# stop MESSAGE: fail, except in a dry run, which says so and goes on to show the rest.
stop() {
    if ((DRY_RUN)); then warn "the real run would stop here: $*"; else fail "$*"; fi
}

# A write-then-command step (unit + daemon-reload, hostname + avahi restart,
# udev rule + udevadm, install + restart) marks itself pending before it
# writes and clears the mark once its command has succeeded, so a run that
# died in between is finished by the next one (whose check would otherwise
# see the file already written and skip the command).
readonly PENDING_DIR=$PREFIX/pending
pending() { [[ -e $ROOT$PENDING_DIR/$1 ]]; }
pending_set() {
    ((DRY_RUN)) && return 0
    mkdir -p "$ROOT$PENDING_DIR"
    printf '%s\n' "$2" >"$ROOT$PENDING_DIR/$1"
}
pending_clear() { ((DRY_RUN)) || rm -f "$ROOT$PENDING_DIR/$1"; }
# need_restart: the running service must be restarted (remembered until it is).
need_restart() { RESTART=1; pending_set restart "a step changed what the service runs"; }

# fake FUNCTION ARGS...: in --root mode the commands above are only printed;
# this makes the one effect of such a command that the next run's check looks
# at (a dpkg status entry, a passwd line, the venv's pyvenv.cfg, the enable
# symlink), so a fake root behaves like a system where the command ran. It does
# nothing on a real system and in a dry run.
fake() { if ((FAKE)); then "$@"; fi; }

# slurp FILE: the text of FILE (a host path) in TEXT, trailing newlines kept; "" if missing.
slurp() {
    TEXT=""
    [[ -f $1 ]] || return 0
    TEXT=$(cat "$1"; printf x)
    TEXT=${TEXT%x}
}

# same PATH CONTENT: the file PATH on the target system has exactly CONTENT.
same() {
    [[ -f $ROOT$1 ]] || return 1
    slurp "$ROOT$1"
    [[ $TEXT == "$2" ]]
}

# write PATH MODE CONTENT: write a file on the target system (MODE "-": leave
# the mode alone, e.g. on the FAT boot partition). In a dry run: say so.
# Call it as a statement, not in a condition, so that a failure stops the step.
write() {
    local mode=$2 content=$3 dest=$ROOT$1
    if ((DRY_RUN)); then
        printf '    would write %s\n' "$dest"
        return 0
    fi
    printf '    write %s\n' "$dest"
    mkdir -p "$(dirname "$dest")"
    printf '%s' "$content" >"$dest.new.$$"
    [[ $mode == - ]] || chmod "$mode" "$dest.new.$$"
    mv -f "$dest.new.$$" "$dest"
}

# remove PATH: delete a file on the target system.
remove() {
    if ((DRY_RUN)); then
        printf '    would remove %s\n' "$ROOT$1"
    else
        printf '    remove %s\n' "$ROOT$1"
        rm -f "$ROOT$1"
    fi
}

# --- checks on the target system ----------------------------------------------

pkg_installed() {
    local status=$ROOT/var/lib/dpkg/status
    [[ -f $status ]] || return 1
    awk -v want="$1" 'BEGIN { RS = ""; FS = "\n" }
        { pkg = ""; st = ""
          for (i = 1; i <= NF; i++) {
              if ($i ~ /^Package: /) pkg = substr($i, 10)
              else if ($i ~ /^Status: /) st = substr($i, 9)
          }
          if (pkg == want && st ~ / installed$/) found = 1 }
        END { exit !found }' "$status"
}

# pkg_available NAME: apt could install NAME (it has a candidate version). On
# the real system apt-cache says (from apt's package lists: run after apt-get
# update); in a fake root, the Packages files in its /var/lib/apt/lists.
pkg_available() {
    if [[ -n $ROOT ]]; then
        local f
        for f in "$ROOT"/var/lib/apt/lists/*_Packages; do
            [[ -f $f ]] && grep -qx "Package: $1" "$f" && return 0
        done
        return 1
    fi
    local candidate
    candidate=$(LC_ALL=C apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')
    [[ -n $candidate && $candidate != "(none)" ]]
}

# apt_lists_present: apt has package lists at all (a fresh image may have none).
apt_lists_present() {
    local f
    for f in "$ROOT"/var/lib/apt/lists/*_Packages*; do [[ -f $f ]] && return 0; done
    return 1
}

user_exists() { [[ -f $ROOT/etc/passwd ]] && grep -q "^$1:" "$ROOT/etc/passwd"; }
group_exists() { [[ -f $ROOT/etc/group ]] && grep -q "^$1:" "$ROOT/etc/group"; }
# in_group USER GROUP: USER is listed as a member of GROUP in /etc/group.
in_group() {
    awk -F: -v u="$1" -v g="$2" '$1 == g { n = split($4, m, ","); for (i = 1; i <= n; i++) if (m[i] == u) found = 1 }
        END { exit !found }' "$ROOT/etc/group"
}

# --- fake-root effects (see fake) ---------------------------------------------

fake_dpkg_installed() {
    local p
    mkdir -p "$ROOT/var/lib/dpkg"
    for p in "$@"; do
        printf 'Package: %s\nStatus: install ok installed\nVersion: 0-fake\n\n' "$p" >>"$ROOT/var/lib/dpkg/status"
    done
}

fake_useradd() {
    mkdir -p "$ROOT/etc"
    printf '%s:x:999:999:Pegs and Jokers companion:%s:/usr/sbin/nologin\n' "$SVC_USER" "$DATA_DIR" >>"$ROOT/etc/passwd"
    group_exists "$SVC_USER" || printf '%s:x:999:\n' "$SVC_USER" >>"$ROOT/etc/group"
}

fake_usermod_groups() {
    local groups=",$1," tmp=$ROOT/etc/group.new.$$
    awk -F: -v OFS=: -v u="$SVC_USER" -v gs="$groups" \
        'index(gs, "," $1 ",") { $4 = ($4 == "" ? u : $4 "," u) } { print }' "$ROOT/etc/group" >"$tmp"
    mv -f "$tmp" "$ROOT/etc/group"
}

fake_venv() {
    mkdir -p "$ROOT$VENV/bin"
    printf 'home = /usr/bin\ninclude-system-site-packages = true\nversion = 3.11\n' >"$ROOT$VENV/pyvenv.cfg"
    [[ -e $ROOT$VENV/bin/python ]] || printf '#!/bin/sh\n# fake root: stands in for the venv python\n' >"$ROOT$VENV/bin/python"
    chmod 0755 "$ROOT$VENV/bin/python"
}

fake_pip_install() {
    # the console script the unit's ExecStart= runs
    [[ -e $ROOT$VENV/bin/pegs ]] || printf '#!/bin/sh\n# fake root: stands in for the pegs command\n' >"$ROOT$VENV/bin/pegs"
    chmod 0755 "$ROOT$VENV/bin/pegs"
}

fake_enable() {
    mkdir -p "$ROOT$UNIT_DIR/multi-user.target.wants"
    ln -sfn "$UNIT_DIR/$UNIT" "$ROOT$UNIT_DIR/multi-user.target.wants/$UNIT"
}

# --- preflight ----------------------------------------------------------------

step preflight "checking the system"
[[ -f $SOURCE/pyproject.toml && -f $SCRIPT_DIR/$UNIT ]] ||
    die "$SOURCE doesn't look like the pegs-companion project (no pyproject.toml or systemd/$UNIT)"
SOURCE=$(cd "$SOURCE" && pwd)
if ((EXECUTE)) && [[ $EUID -ne 0 ]]; then
    die "run it as root: sudo $0 (or try --dry-run first)"
fi
if ((EXECUTE)) && ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    die "needs python3 3.11 or newer (Raspberry Pi OS Bookworm has it)"
fi
[[ $HOST_NAME =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]] ||
    die "--hostname $HOST_NAME: use lower-case letters, digits and '-' (e.g. pegs)"
if [[ -n $PORT ]] && ! [[ $PORT =~ ^[0-9]+$ && $PORT -ge 1 && $PORT -le 65535 ]]; then
    die "--port $PORT: must be a number 1-65535"
fi
[[ $EXTRAS == auto || $EXTRAS =~ ^[a-z0-9,]*$ ]] || die "--extras $EXTRAS: a comma-separated list such as pi,pi5"

if [[ -r $ROOT/proc/device-tree/model ]]; then
    PI_MODEL=$(tr -d '\0' <"$ROOT/proc/device-tree/model")
fi
case $PI_MODEL in
    "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"*) PI5=1 ;; # also the Pi 500
esac
if [[ $PI_MODEL == "Raspberry Pi"* ]]; then
    info "model: $PI_MODEL"
elif [[ $EXTRAS == auto ]]; then
    warn "not a Raspberry Pi (no model in /proc/device-tree/model): installing without the hardware extras"
elif [[ -z $EXTRAS ]]; then
    info "not a Raspberry Pi (no model in /proc/device-tree/model); no extras (--extras '')"
else
    warn "not a Raspberry Pi (no model in /proc/device-tree/model): installing the extras asked for ($EXTRAS), though there is no Pi hardware here to use them"
fi
if [[ $EXTRAS == auto ]]; then
    if ((PI5)); then
        EXTRAS=pi,pi5
    elif [[ $PI_MODEL == "Raspberry Pi"* ]]; then
        EXTRAS=pi
    else
        EXTRAS=""
    fi
fi
if [[ $PWM_ROOT == yes ]] && ((PI5)); then
    die "--pwm-root is for a Pi 1-4: the Pi 5 drives the LEDs through PIO, without root"
fi
if [[ $PWM_ROOT == auto ]]; then
    if [[ -e $ROOT$NO_PWM_ROOT_MARK ]]; then
        PWM_ROOT=no       # chosen with --no-pwm-root before
    elif [[ $PI_MODEL == "Raspberry Pi"* ]] && ((!PI5)); then
        PWM_ROOT=yes
    else
        PWM_ROOT=no
    fi
    PWM_CHOSEN=0
else
    PWM_CHOSEN=1
fi
OS_CODENAME=$(sed -n 's/^VERSION_CODENAME=//p' "$ROOT/etc/os-release" 2>/dev/null || true)
case $OS_CODENAME in
    bookworm | trixie) ;;
    *) warn "made for Raspberry Pi OS Bookworm and Trixie; this is '${OS_CODENAME:-unknown}': installing as for Trixie" ;;
esac
# The port: --port, else the one in an existing config file, else 8000.
conf_port=$(sed -n 's/^[[:space:]]*port[[:space:]]*=[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$ROOT$CONF_FILE" 2>/dev/null | head -n1 || true)
if [[ -z $PORT ]]; then
    PORT=${conf_port:-8000}
elif [[ -n $conf_port && $conf_port != "$PORT" ]]; then
    warn "$CONF_FILE says port = $conf_port; it is never overwritten, so edit it to match --port $PORT"
fi
# systemd as PID 1? Not in a chroot, a container or an image being built: then
# daemon-reload, restart, hostname and udevadm can't (and needn't) run; the
# files they would load are read at the first boot instead.
SYSTEMD_UP=0
[[ -d $ROOT/run/systemd/system ]] && SYSTEMD_UP=1
# The name the Pi answers to on the network after this run.
slurp "$ROOT/etc/hostname"
CURRENT_HOSTNAME=$(tr -d '[:space:]' <<<"$TEXT")
NET_NAME=$HOST_NAME
((SET_HOSTNAME)) || NET_NAME=${CURRENT_HOSTNAME:-raspberrypi}
info "source: $SOURCE"
info "OS: ${OS_CODENAME:-unknown}; extras: ${EXTRAS:-none}; port $PORT; camera: $( ((CAMERA)) && echo yes || echo no)"
info "service user: $( [[ $PWM_ROOT == yes ]] && echo "root (the LED driver, see below)" || echo "$SVC_USER")"
[[ -n $ROOT ]] && info "fake root: $ROOT (commands are printed, not run)"
((SYSTEMD_UP)) || info "systemd is not running here (no /run/systemd/system: a chroot, a container or an image being built): the service is enabled but not started; the unit, hostname and udev rule take effect at the first boot"
((DRY_RUN)) && info "dry run: nothing is changed"
ok "ready"

# --- apt packages ---------------------------------------------------------------

step apt-packages "Debian packages"
# python3-venv: the venv; avahi-daemon: the name pegs.local. With the hardware
# extras (pi, pi5) or on a Pi: the GPIO libraries, from the OS, never from pip
# where the OS has them (RPi.GPIO's sdist doesn't build on Trixie's Python
# 3.13), reached through the venv's --system-site-packages: python3-lgpio
# (gpiozero's pin library, and its SPI for the 74HC165 chain) and
# python3-spidev; RPi.GPIO's API from python3-rpi.gpio on a Bookworm Pi 1-4,
# from python3-rpi-lgpio on a Trixie Pi 1-4 (it replaces python3-rpi.gpio: the
# two can't be installed together; apt swaps them); on a Pi 5 neither (nothing
# here needs that API there; RPi.GPIO can't drive the RP1). python3-dev, gcc
# and libc6-dev: pip builds rpi_ws281x (the Pi 1-4 LED driver, plain C) from
# source; build-essential would add g++, make, dpkg-dev and perl, which nothing
# here uses (a quarter of the apt work, measured in an arm64 root).
# python3-lgpio, python3-rpi-lgpio and python3-picamera2 are in Raspberry Pi
# OS's own archive only, not in Debian's: apt is asked only for what it has
# (apt-cache), and the GPIO libraries it lacks come from PyPI into the venv.
HARDWARE=0
[[ ,$EXTRAS, == *,pi,* || ,$EXTRAS, == *,pi5,* ]] && HARDWARE=1
packages=(python3-venv)
((HARDWARE)) && packages+=(python3-dev gcc libc6-dev)
if ((HARDWARE)) || [[ $PI_MODEL == "Raspberry Pi"* ]]; then
    packages+=(python3-lgpio python3-spidev)
fi
packages+=(avahi-daemon)
if [[ $PI_MODEL == "Raspberry Pi"* ]] && ((!PI5)); then
    if [[ $OS_CODENAME == bookworm ]]; then
        packages+=(python3-rpi.gpio)
    else
        packages+=(python3-rpi-lgpio)
    fi
fi
# The camera: picamera2 only comes from apt, and it is built against apt's
# NumPy, so OpenCV and NumPy come from apt too (pip's opencv-python would pull
# in a NumPy 2 that breaks picamera2).
((CAMERA)) && packages+=(python3-picamera2 python3-opencv python3-numpy)
if ((!HARDWARE)) && [[ $PI_MODEL != "Raspberry Pi"* ]]; then
    skip "not a Raspberry Pi and no hardware extras: no GPIO libraries, no compiler (python3-lgpio python3-spidev python3-dev gcc libc6-dev)"
fi
# What apt lacked when its lists were last updated (so a re-run needn't update them again).
readonly APT_LACKS=$PREFIX/apt-lacks
missing=()
for p in "${packages[@]}"; do
    pkg_installed "$p" || missing+=("$p")
done
# apt's sources as they are now: a source added since (say Raspberry Pi OS's archive) means
# what apt lacked may be there now, so its lists are updated again.
sources=$(cat "$ROOT"/etc/apt/sources.list "$ROOT"/etc/apt/sources.list.d/*.list \
    "$ROOT"/etc/apt/sources.list.d/*.sources 2>/dev/null | cksum || true)
sources=${sources%% *}
slurp "$ROOT$APT_LACKS"
lacked=$TEXT
updated=0
if ((${#missing[@]})) && [[ $lacked != "${missing[*]} sources=$sources"$'\n' ]]; then
    # Fresh lists before asking apt-cache what it has (and before installing).
    run apt-get update
    ((EXECUTE)) || [[ -n $ROOT ]] || info "(what apt has, below: as its package lists say now, before that update)"
    updated=1
fi
if ((${#missing[@]})) && ((!EXECUTE)) && [[ -z $ROOT ]] && ! apt_lists_present; then
    info "apt has no package lists yet (apt-get update fills them): what it has is unknown until then"
fi
to_install=()
lacking=()
PYPI=()             # the GPIO libraries apt lacks, from PyPI into the venv
for p in "${missing[@]}"; do
    if pkg_available "$p"; then
        to_install+=("$p")
        continue
    fi
    lacking+=("$p")
    case $p in
        python3-lgpio) PYPI+=("lgpio>=0.2") ;;
        python3-spidev) PYPI+=(spidev) ;;
        python3-rpi.gpio | python3-rpi-lgpio) PYPI+=(rpi-lgpio) ;;
    esac
done
if ((${#lacking[@]})); then
    no_pypi=()
    for p in "${lacking[@]}"; do
        case $p in python3-lgpio | python3-spidev | python3-rpi.gpio | python3-rpi-lgpio) ;; *) no_pypi+=("$p") ;; esac
    done
    if [[ " ${no_pypi[*]} " == *" python3-picamera2 "* ]]; then
        stop "--camera needs python3-picamera2, which only Raspberry Pi OS's apt archive has (not Debian's): use Raspberry Pi OS, or leave out --camera"
    elif ((${#no_pypi[@]})); then
        stop "apt has no ${no_pypi[*]} (apt-cache policy: no candidate): check the sources in /etc/apt/sources.list*, run apt-get update, then this script again"
    fi
    info "not in this system's apt sources (Raspberry Pi OS's archive has them): ${lacking[*]}"
    info "instead from PyPI, into the venv: ${PYPI[*]}"
fi
# remember what apt lacked, so the next run doesn't update its lists for it again
if ((!DRY_RUN)); then
    if ((${#lacking[@]} == 0)); then
        rm -f "$ROOT$APT_LACKS"
    elif [[ $lacked != "${lacking[*]} sources=$sources"$'\n' ]]; then
        mkdir -p "$ROOT$PREFIX"
        printf '%s sources=%s\n' "${lacking[*]}" "$sources" >"$ROOT$APT_LACKS"
    fi
fi
if ((${#to_install[@]} == 0)); then
    have=()
    for p in "${packages[@]}"; do [[ " ${lacking[*]} " == *" $p "* ]] || have+=("$p"); done
    ok "installed: ${have[*]}"
else
    # (apt lacked these last time, and its lists have them now: fresh lists to install from)
    ((updated)) || run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${to_install[@]}"
    fake fake_dpkg_installed "${to_install[@]}"
    changed "installed ${to_install[*]}"
fi

# --- the service user -------------------------------------------------------------

step service-user "system user '$SVC_USER'"
if user_exists "$SVC_USER"; then
    ok "user $SVC_USER exists"
else
    # its own group pegs (an existing one, e.g. left by an earlier install, is reused)
    group_opt=--user-group
    group_exists "$SVC_USER" && group_opt=--gid=$SVC_USER
    run useradd --system "$group_opt" --home-dir "$DATA_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "Pegs and Jokers companion" "$SVC_USER"
    fake fake_useradd
    changed "created user $SVC_USER"
fi

step user-groups "'$SVC_USER' in groups ${SVC_GROUPS[*]}"
add=()
for g in "${SVC_GROUPS[@]}"; do
    if ! group_exists "$g"; then
        warn "no group '$g' on this system: skipped (its devices won't be reachable)"
    elif ! user_exists "$SVC_USER" || ! in_group "$SVC_USER" "$g"; then
        add+=("$g")
    fi
done
if ((${#add[@]} == 0)); then
    ok "member of every group there is"
else
    list=$(IFS=,; printf '%s' "${add[*]}")
    run usermod --append --groups "$list" "$SVC_USER"
    fake fake_usermod_groups "$list"
    need_restart
    changed "added to $list"
fi

# --- SPI and I2C (and the PWM audio clash) ------------------------------------------

step boot-config "SPI and I2C on (config.txt), i2c-dev loaded at boot"
if [[ -f $ROOT/boot/firmware/config.txt ]]; then
    boot_config=/boot/firmware/config.txt
elif [[ -f $ROOT/boot/config.txt ]] && ! grep -q 'DO NOT EDIT' "$ROOT/boot/config.txt"; then
    boot_config=/boot/config.txt
else
    boot_config=""
fi
if [[ -z $boot_config ]]; then
    skip "no /boot/firmware/config.txt (not a Raspberry Pi?)"
else
    slurp "$ROOT$boot_config"
    text=$TEXT
    want=()
    grep -Eq '^[[:space:]]*dtparam=([^#]*,)?spi=on([,[:space:]]|$)' <<<"$text" || want+=("dtparam=spi=on")
    grep -Eq '^[[:space:]]*dtparam=([^#]*,)?i2c(_arm)?=on([,[:space:]]|$)' <<<"$text" || want+=("dtparam=i2c_arm=on")
    edited=0
    if [[ $PWM_ROOT == yes ]]; then
        # The LEDs' PWM on GPIO18 is the analog audio's PWM: both at once garble the LEDs.
        # Raspberry Pi OS's own "dtparam=audio=on" is commented out, so no line says on.
        if grep -Eq '^[[:space:]]*dtparam=([^#]*,)?audio=on([,[:space:]]|$)' <<<"$text"; then
            text=$(sed -E 's/^([[:space:]]*dtparam=([^#]*,)?audio=on([,[:space:]].*)?)$/#\1   # pegs-companion: audio off for the LEDs/' <<<"$text")$'\n'
            edited=1
        fi
        grep -Eq '^[[:space:]]*dtparam=([^#]*,)?audio=off([,[:space:]]|$)' <<<"$text" || want+=("dtparam=audio=off")
    fi
    if ((${#want[@]} == 0 && !edited)); then
        ok "$boot_config has SPI and I2C on$( [[ $PWM_ROOT == yes ]] && echo ", audio off")"
    else
        block=""
        if ((${#want[@]})); then
            block=$'\n[all]\n# added by pegs-companion systemd/install.sh\n'
            block+=$(printf '%s\n' "${want[@]}")$'\n'
        fi
        [[ -z $text || $text == *$'\n' ]] || text+=$'\n'
        if ((!DRY_RUN)) && [[ ! -e $ROOT$boot_config.pegs-backup ]]; then
            info "backup: $ROOT$boot_config.pegs-backup"
            cp "$ROOT$boot_config" "$ROOT$boot_config.pegs-backup"
        fi
        write "$boot_config" - "$text$block"
        REBOOT_WHY+=("${want[*]:-audio off} in $boot_config")
        changed "$( ((edited)) && printf 'commented out dtparam=audio=on; ')added ${want[*]:-nothing} to $boot_config"
    fi
    # raspi-config's do_i2c puts i2c-dev in /etc/modules; a file of our own does the same.
    if grep -qsx 'i2c-dev' "$ROOT/etc/modules" || [[ -f $ROOT$MODULES_CONF ]]; then
        ok "i2c-dev is loaded at boot"
    else
        write "$MODULES_CONF" 0644 $'# /dev/i2c-* for the MCP23017 expanders (pegs-companion)\ni2c-dev\n'
        REBOOT_WHY+=("i2c-dev module")
        changed "i2c-dev in $MODULES_CONF"
    fi
fi

# --- Pi 5: the LED driver's device -------------------------------------------------

step pi5-led-udev "Pi 5: /dev/pio0 for group gpio (the NeoPixel PIO driver)"
rule=$'# /dev/pio0 (RP1 PIO, Pi 5): the NeoPixel driver as group gpio, without root\nSUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"\n'
if ((!PI5)); then
    skip "not a Pi 5"
elif same "$UDEV_RULE" "$rule" && ! pending udev; then
    ok "$UDEV_RULE is in place"
elif grep -qs '"\*-pio"' "$ROOT/etc/udev/rules.d/99-com.rules" "$ROOT/usr/lib/udev/rules.d/99-com.rules"; then
    ok "Raspberry Pi OS's 99-com.rules already gives /dev/pio0 to group gpio"
else
    if same "$UDEV_RULE" "$rule"; then
        info "$UDEV_RULE was written, but udevadm did not finish last time: again"
    else
        pending_set udev "udevadm control --reload-rules; udevadm trigger"
        write "$UDEV_RULE" 0644 "$rule"
    fi
    if ((SYSTEMD_UP)); then
        run udevadm control --reload-rules
        run udevadm trigger --action=add --subsystem-match='*-pio'
    else
        skip "udevadm: udev is not running here; it reads the rule at the first boot"
    fi
    pending_clear udev
    need_restart
    changed "$UDEV_RULE"
fi

# --- the program ------------------------------------------------------------------

step venv "virtual environment $VENV (with the system's site packages)"
slurp "$ROOT$VENV/pyvenv.cfg"
cfg=$TEXT
if [[ -x $ROOT$VENV/bin/python ]] && grep -q '^include-system-site-packages = true' <<<"$cfg"; then
    ok "$VENV exists and sees apt's packages (picamera2, lgpio)"
elif [[ -x $ROOT$VENV/bin/python ]]; then
    # shellcheck disable=SC2001  # a line-anchored edit
    write "$VENV/pyvenv.cfg" 0644 "$(sed 's/^include-system-site-packages = .*/include-system-site-packages = true/' <<<"$cfg")"$'\n'
    changed "turned on include-system-site-packages"
else
    run python3 -m venv --system-site-packages "$VENV"
    fake fake_venv
    changed "created $VENV"
fi

step python-package "pegs-companion${EXTRAS:+[$EXTRAS]} in the venv"
existing=()
for f in "${PROJECT_FILES[@]}"; do
    [[ -e $SOURCE/$f ]] && existing+=("$f")
done
# What is installed is recorded in $STAMP: the extras and a hash of the sources.
digest=$(cd "$SOURCE" && find "${existing[@]}" \( -name __pycache__ -o -name '*.egg-info' \) -prune \
    -o -type f ! -name '*.pyc' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)
want_stamp="extras=$EXTRAS source=${digest%% *}"
# the GPIO libraries apt lacks, from PyPI (see apt-packages)
((${#PYPI[@]})) && want_stamp+=" pypi=$(IFS=,; printf '%s' "${PYPI[*]}")"
slurp "$ROOT$STAMP"
old_stamp=${TEXT%$'\n'}
old_pypi=$(sed -n 's/.* pypi=\([^ ]*\).*/\1/p' <<<"$old_stamp")
# PyPI's copies of what apt lacked that are no longer wanted (apt has them now, say
# Raspberry Pi OS's archive was added): out of the venv, so apt's are used.
drop=()
for spec in ${old_pypi//,/ }; do
    [[ " ${PYPI[*]-} " == *" $spec "* ]] || drop+=("${spec%%[<>=]*}")
done
if [[ -x $ROOT$VENV/bin/pegs ]] && [[ $old_stamp == "$want_stamp" ]]; then
    ok "installed and up to date ($want_stamp)"
elif [[ -x $ROOT$VENV/bin/pegs && ${old_stamp%% pypi=*} == "${want_stamp%% pypi=*}" ]]; then
    # the program is up to date; only the PyPI stand-ins for apt's libraries changed
    need_restart
    ((${#PYPI[@]})) && run "$VENV/bin/python" -m pip install --no-cache-dir "${PYPI[@]}"
    ((${#drop[@]})) && run "$VENV/bin/python" -m pip uninstall --yes "${drop[@]}"
    write "$STAMP" 0644 "$want_stamp"$'\n'
    changed "from PyPI now: ${PYPI[*]:-nothing}$( ((${#drop[@]})) && printf '; removed %s (apt has it)' "${drop[*]}")"
else
    if [[ " ${PYPI[*]-} " == *" lgpio>=0.2 "* ]] && ((EXECUTE)); then
        # lgpio's sdist needs SWIG and the C library: only a wheel will do. Ask before installing anything.
        wheels=$(mktemp -d)
        if ! "$VENV/bin/python" -m pip download --quiet --no-deps --only-binary=:all: -d "$wheels" "lgpio>=0.2" >/dev/null 2>&1; then
            rm -rf "$wheels"
            fail "python3-lgpio (gpiozero's pin library) is not in this system's apt sources, and PyPI has no lgpio wheel for its Python ($("$VENV/bin/python" -c 'import platform; print(platform.python_version(), platform.machine())')): add Raspberry Pi OS's apt archive (it has python3-lgpio), or install without the hardware extras (--extras '')"
        fi
        rm -rf "$wheels"
    fi
    # A clean copy to build from, so pip's build files don't land (as root) in your checkout.
    if ((DRY_RUN)); then
        info "would copy ${existing[*]} from $SOURCE to $ROOT$PREFIX/src"
    else
        info "copy ${existing[*]} from $SOURCE to $ROOT$PREFIX/src"
        rm -rf "$ROOT$PREFIX/src"
        mkdir -p "$ROOT$PREFIX/src"
        tar -C "$SOURCE" --exclude=__pycache__ --exclude='*.pyc' --exclude='*.egg-info' -cf - "${existing[@]}" |
            tar -C "$ROOT$PREFIX/src" -xf -
    fi
    if [[ ,$EXTRAS, == *,pi5,* ]]; then
        info "the pi5 extra pins adafruit-blinka-raspberry-pi5-neopixel==1.0.0rc2: a release candidate,"
        info "PyPI has no final release of the Pi 5 LED driver yet"
    fi
    need_restart   # before pip: a half-done install must be restarted into too
    run "$VENV/bin/python" -m pip install --no-cache-dir "$PREFIX/src${EXTRAS:+[$EXTRAS]}" ${PYPI[@]+"${PYPI[@]}"}
    ((${#drop[@]})) && run "$VENV/bin/python" -m pip uninstall --yes "${drop[@]}"
    fake fake_pip_install
    write "$STAMP" 0644 "$want_stamp"$'\n'
    changed "installed ($want_stamp)"
fi

step pegs-command "the pegs command on the PATH ($PEGS_LINK)"
link=$(readlink "$ROOT$PEGS_LINK" 2>/dev/null || true)
if [[ $link == "$VENV/bin/pegs" ]]; then
    ok "$PEGS_LINK -> $VENV/bin/pegs"
elif [[ -e $ROOT$PEGS_LINK || -L $ROOT$PEGS_LINK ]]; then
    warn "$PEGS_LINK is something else; left alone (use $VENV/bin/pegs)"
    skip "$PEGS_LINK is not ours"
else
    if ((DRY_RUN)); then
        info "would link $ROOT$PEGS_LINK -> $VENV/bin/pegs"
    else
        mkdir -p "$(dirname "$ROOT$PEGS_LINK")"
        ln -s "$VENV/bin/pegs" "$ROOT$PEGS_LINK"
    fi
    changed "$PEGS_LINK -> $VENV/bin/pegs"
fi

# --- settings ---------------------------------------------------------------------

step config-file "settings $CONF_FILE (created if missing, never overwritten)"
# The documented example (every key, with its default) is refreshed each run: it is documentation.
slurp "$SCRIPT_DIR/config.example.toml"
if ! same "$CONF_DIR/config.example.toml" "$TEXT"; then
    if [[ ! -d $ROOT$CONF_DIR ]]; then
        if ((DRY_RUN)); then info "would create $ROOT$CONF_DIR"; else mkdir -p "$ROOT$CONF_DIR"; chmod 0775 "$ROOT$CONF_DIR"; fi
    fi
    write "$CONF_DIR/config.example.toml" 0644 "$TEXT"
    changed "$CONF_DIR/config.example.toml: every setting, documented"
fi
ADMIN_CODE=""
if [[ -e $ROOT$CONF_FILE ]]; then
    ok "$CONF_FILE exists: kept as it is"
else
    # The code that opens the settings page (/settings) from a phone: 8 random digits.
    ADMIN_CODE=$(printf '%08d' $(( $(od -An -N4 -tu4 /dev/urandom | tr -d ' ') % 100000000 )))
    write "$CONF_FILE" 0660 "# Pegs and Jokers companion: settings of the service (pegs-companion.service).
# Only what differs from the defaults: $CONF_DIR/config.example.toml
# documents every key. Written once by systemd/install.sh, which never
# overwrites it; the settings page (http://$NET_NAME.local:$PORT/settings)
# writes its changes here, keeping your comments.
# After editing by hand: pegs serve --check --config $CONF_FILE
#                        sudo systemctl restart pegs-companion
#
# The service passes --data-dir $DATA_DIR on its command line (the games
# are kept there), which wins over a data_dir here.

[serve]
port = $PORT
# The code that opens the settings page from a phone.
admin_code = \"$ADMIN_CODE\"

# The board (README: \"The board referee\"). Without a wiring: the simulated
# board on the table page. With one (the [wiring.*] tables of
# config.example.toml, or board.wiring = a wiring file, or
# $CONF_DIR/wiring.toml): the reed switches and LEDs. If they fail to start,
# the phones are the board and the table page says what failed.
# [board]
# mode = \"sensors\"                   # sensors, leds (LEDs only), simulation or none
# settle_seconds = 0.8               # how long the board must be still before a move is taken
"
    # Group pegs may write here: settings changed from the referee's pages. The
    # file holds the admin code, so it is not world-readable.
    ((DRY_RUN)) || info "admin code for the settings page: $ADMIN_CODE (admin_code in $CONF_FILE)"
    run chown root:"$SVC_USER" "$CONF_DIR" "$CONF_FILE"
    need_restart
    changed "wrote a default $CONF_FILE (port $PORT, a new admin code)"
fi

# --- the name on the network (mDNS) ----------------------------------------------------

if ((SET_HOSTNAME)); then
    step hostname "hostname '$HOST_NAME' (the Pi answers as $HOST_NAME.local)"
else
    step hostname "hostname (kept: --keep-hostname)"
fi
current=$CURRENT_HOSTNAME
if ((!SET_HOSTNAME)); then
    skip "--keep-hostname: the Pi stays ${current:-unnamed}.local"
elif [[ $current == "$HOST_NAME" ]] && ! pending hostname; then
    ok "hostname is $HOST_NAME"
elif [[ $current == "$HOST_NAME" ]]; then
    info "/etc/hostname says $HOST_NAME, but the commands after it did not finish last time: again"
    if ((SYSTEMD_UP)); then
        run hostname "$HOST_NAME"
        run systemctl try-restart avahi-daemon.service
    fi
    pending_clear hostname
    changed "hostname $HOST_NAME in effect"
else
    pending_set hostname "hostname $HOST_NAME; systemctl try-restart avahi-daemon"
    write /etc/hostname 0644 "$HOST_NAME"$'\n'
    # sudo and others look the hostname up: keep the 127.0.1.1 line in step.
    slurp "$ROOT/etc/hosts"
    hosts=$TEXT
    if grep -q '^127\.0\.1\.1[[:space:]]' <<<"$hosts"; then
        # shellcheck disable=SC2001  # a line-anchored edit
        hosts=$(sed "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$HOST_NAME/" <<<"$hosts")$'\n'
    else
        [[ -z $hosts || $hosts == *$'\n' ]] || hosts+=$'\n'
        hosts+=$'127.0.1.1\t'"$HOST_NAME"$'\n'
    fi
    write /etc/hosts 0644 "$hosts"
    if ((SYSTEMD_UP)); then
        run hostname "$HOST_NAME"
        # avahi-daemon publishes the name it read at start.
        run systemctl try-restart avahi-daemon.service
    else
        # here `hostname` would rename the machine this runs on (a chroot's host, a build server)
        skip "hostname and the avahi restart: systemd is not running here; the name is set at the first boot"
    fi
    pending_clear hostname
    changed "hostname ${current:-unset} -> $HOST_NAME"
fi

step avahi-service "mDNS advert: _http._tcp on port $PORT ($AVAHI_SERVICE)"
# The advert lets Bonjour/mDNS browsers list the referee; the name $HOST_NAME.local
# itself comes from the hostname (a service file can't create a name).
# avahi-daemon watches /etc/avahi/services and picks the file up by itself.
advert="<?xml version=\"1.0\" standalone=\"no\"?>
<!DOCTYPE service-group SYSTEM \"avahi-service.dtd\">
<!-- Pegs and Jokers companion: written by systemd/install.sh (run it again to change the port) -->
<service-group>
  <name replace-wildcards=\"yes\">Pegs and Jokers on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>$PORT</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
"
if same "$AVAHI_SERVICE" "$advert"; then
    ok "advertised on port $PORT"
else
    write "$AVAHI_SERVICE" 0644 "$advert"
    changed "advertising port $PORT"
fi

# --- the service ----------------------------------------------------------------------

step systemd-unit "$UNIT_DIR/$UNIT"
if [[ $PWM_ROOT == yes ]]; then
    info "runs as root (pwm-root.conf): on a Pi 1-4 the LED strip on GPIO18 is driven by"
    info "PWM with DMA, which rpi_ws281x sets up through /dev/mem, and only root may map it."
    info "The analog audio shares that PWM, so dtparam=audio=off is set too."
    info "Without LEDs (or to keep the service unprivileged): --no-pwm-root, and"
    info "wiring.leds.driver = \"mock\" in $CONF_FILE."
elif ((PI5)); then
    info "runs as user $SVC_USER: the Pi 5 drives the LEDs through the RP1's PIO (/dev/pio0), no root needed"
elif [[ $PI_MODEL == "Raspberry Pi"* ]]; then
    warn "runs as user $SVC_USER (--no-pwm-root): on a Pi 1-4 the LED strip can't light this way"
fi
unit_changed=0
if pending daemon-reload; then
    info "the unit files were written, but systemctl daemon-reload did not finish last time: again"
    unit_changed=1
fi
slurp "$SCRIPT_DIR/$UNIT"
if ! same "$UNIT_DIR/$UNIT" "$TEXT"; then
    pending_set daemon-reload "systemctl daemon-reload"
    write "$UNIT_DIR/$UNIT" 0644 "$TEXT"
    unit_changed=1
fi
slurp "$SCRIPT_DIR/pwm-root.conf"
if [[ $PWM_ROOT == yes ]] && ! same "$DROPIN_DIR/pwm-root.conf" "$TEXT"; then
    pending_set daemon-reload "systemctl daemon-reload"
    write "$DROPIN_DIR/pwm-root.conf" 0644 "$TEXT"
    unit_changed=1
elif [[ $PWM_ROOT == no && -e $ROOT$DROPIN_DIR/pwm-root.conf ]]; then
    pending_set daemon-reload "systemctl daemon-reload"
    remove "$DROPIN_DIR/pwm-root.conf"
    unit_changed=1
fi
# remember an explicit --no-pwm-root (and forget it after --pwm-root)
if ((PWM_CHOSEN)) && [[ $PWM_ROOT == no && ! -e $ROOT$NO_PWM_ROOT_MARK ]]; then
    write "$NO_PWM_ROOT_MARK" 0644 $'# systemd/install.sh --no-pwm-root: the service runs as pegs, not root\n'
elif ((PWM_CHOSEN)) && [[ $PWM_ROOT == yes && -e $ROOT$NO_PWM_ROOT_MARK ]]; then
    remove "$NO_PWM_ROOT_MARK"
fi
if ((unit_changed)); then
    need_restart
    if ((SYSTEMD_UP)); then
        run systemctl daemon-reload
    else
        skip "systemctl daemon-reload: systemd is not running here; it reads the unit at the first boot"
    fi
    pending_clear daemon-reload
    changed "unit files updated"
else
    dropin=""
    [[ -f $ROOT$DROPIN_DIR/pwm-root.conf ]] && dropin=" (with pwm-root.conf: runs as root)"
    ok "unit is up to date$dropin"
fi

step enable-service "start at boot"
if [[ -L $ROOT$UNIT_DIR/multi-user.target.wants/$UNIT ]]; then
    ok "enabled"
else
    run systemctl enable "$UNIT"
    fake fake_enable
    changed "enabled"
fi

step start-service "running"
if ((!START)); then
    skip "--no-start"
elif ((!SYSTEMD_UP)); then
    pending_clear restart
    skip "systemd is not running here: the service starts at the first boot (it is enabled)"
elif ((RESTART)) || [[ ${#CHANGED[@]} -gt 0 ]] || pending restart; then
    pending restart && ((!RESTART)) && [[ ${#CHANGED[@]} -eq 0 ]] && info "a restart did not finish last time: again"
    run systemctl restart "$UNIT"
    pending_clear restart
    changed "(re)started"
elif [[ -z $ROOT ]] && ! systemctl is-active --quiet "$UNIT"; then
    run systemctl start "$UNIT"
    changed "started"
else
    ok "nothing changed, no restart needed"
fi

# --- summary ---------------------------------------------------------------------------

STEP=summary
echo
if ((${#CHANGED[@]} == 0)); then
    echo "Everything was already in place: nothing changed."
elif ((DRY_RUN)); then
    echo "Dry run: ${#CHANGED[@]} step(s) would change something, nothing was changed."
else
    echo "Done: ${#CHANGED[@]} step(s) changed something."
fi
if ((${#REBOOT_WHY[@]})); then
    ((DRY_RUN)) || printf 'Reboot once to apply: %s (sudo reboot)\n' "$(IFS=';'; printf '%s' "${REBOOT_WHY[*]}" | sed 's/;/; /g')"
fi
if [[ $PWM_ROOT == yes ]]; then
    echo "The service runs as root: the LEDs of a Pi 1-4 need it (rpi_ws281x maps /dev/mem); audio=off."
    echo "For pegs hw-test: sudo systemctl stop $APP, then sudo pegs hw-test (the service holds the pins)."
fi
url=http://$NET_NAME.local:$PORT
if ((!DRY_RUN)) && [[ -n $ADMIN_CODE ]]; then
    echo "Settings page: $url/settings - admin code $ADMIN_CODE (admin_code in $CONF_FILE)"
elif ((!DRY_RUN)) && [[ -e $ROOT$CONF_FILE ]]; then
    echo "Settings: $CONF_FILE (the settings page $url/settings asks for its admin_code: sudo grep admin_code $CONF_FILE)"
fi
if ((!DRY_RUN)); then
    if ((!SYSTEMD_UP)); then
        echo "systemd is not running here, so nothing was started: the service starts at the first boot."
        echo "After that boot: systemctl status $APP (is it running?), then open $url/ on a phone on the same Wi-Fi."
    elif ((!START)); then
        echo "Not started (--no-start): sudo systemctl start $APP, then open $url/ on a phone on the same Wi-Fi."
    else
        echo "Open $url/ on a phone on the same Wi-Fi. Logs: journalctl -u $APP -f"
    fi
fi
