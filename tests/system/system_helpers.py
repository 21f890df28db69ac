"""Helpers for the Raspberry Pi system tests (tests/system): a fake Pi root,
command shims, runs of systemd/install.sh, tree snapshots.

The install script is only ever run with --root (a fake root under tmp_path)
here, never against the real system.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SYSTEMD = REPO / "systemd"
INSTALL = SYSTEMD / "install.sh"
UNIT = SYSTEMD / "pegs-companion.service"
DROPIN = SYSTEMD / "pwm-root.conf"

# Every step of install.sh, in order.
STEPS = [
    "preflight", "apt-packages", "service-user", "user-groups", "boot-config",
    "pi5-led-udev", "venv", "python-package", "pegs-command", "config-file",
    "hostname", "avahi-service", "systemd-unit", "enable-service", "start-service",
]

# Commands that change a system. In --root or --dry-run mode install.sh must
# only print them: each shim records that it was called and fails.
MUTATING = [
    "apt-get", "apt", "dpkg", "useradd", "usermod", "groupadd", "adduser", "systemctl",
    "udevadm", "hostname", "hostnamectl", "raspi-config", "python3", "python", "pip",
    "pip3", "chown", "chgrp", "reboot",
]

PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"

STOCK_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Automatically load overlays for detected cameras
camera_auto_detect=1

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
otg_mode=1

[all]
"""


OS_RELEASE = {
    "bookworm": 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\nID=debian\n',
    "trixie": 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nVERSION_ID="13"\nVERSION_CODENAME=trixie\nID=debian\n',
}


# What apt can install, as the package lists of Debian and of Raspberry Pi OS's own
# archive name them (install.sh reads a fake root's /var/lib/apt/lists/*_Packages).
DEBIAN_PACKAGES = ["python3-venv", "python3-dev", "gcc", "libc6-dev", "python3-spidev", "avahi-daemon",
                   "python3-opencv", "python3-numpy", "bash"]
RASPBERRY_PI_OS_PACKAGES = ["python3-lgpio", "python3-rpi-lgpio", "python3-picamera2", "python3-rpi.gpio"]


def write_apt_lists(root: Path, release: str, raspberry_pi_os: bool = True) -> None:
    lists = root / "var/lib/apt/lists"
    lists.mkdir(parents=True, exist_ok=True)
    archives = {f"debian_dists_{release}_main_binary-arm64_Packages": DEBIAN_PACKAGES}
    if raspberry_pi_os:
        archives[f"raspberrypi-os_dists_{release}_main_binary-arm64_Packages"] = RASPBERRY_PI_OS_PACKAGES
    for name, packages in archives.items():
        (lists / name).write_text("".join(f"Package: {p}\nVersion: 1.0\nArchitecture: arm64\n\n"
                                          for p in packages))


def make_fake_root(root: Path, model: str | None = PI4, release: str = "bookworm",
                   raspberry_pi_os: bool = True, booted: bool = True) -> Path:
    """A freshly flashed Raspberry Pi OS (Bookworm or Trixie), as far as install.sh looks.
    ``raspberry_pi_os=False``: plain Debian (apt has no Raspberry Pi OS packages);
    ``booted=False``: systemd is not running (a chroot or an image being built)."""
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text(
        "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:/home/pi:/bin/bash\n")
    (root / "etc/group").write_text(
        "root:x:0:\nvideo:x:44:pi\ni2c:x:994:pi\nspi:x:995:pi\ngpio:x:997:pi\npi:x:1000:\n")
    (root / "etc/os-release").write_text(OS_RELEASE[release])
    (root / "etc/hostname").write_text("raspberrypi\n")
    (root / "etc/hosts").write_text(
        "127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n"
        "ff02::1\t\tip6-allnodes\n\n127.0.1.1\traspberrypi\n")
    (root / "var/lib/dpkg").mkdir(parents=True)
    (root / "var/lib/dpkg/status").write_text(
        "Package: bash\nStatus: install ok installed\nVersion: 5.2.15-2+b7\n\n"
        "Package: avahi-daemon\nStatus: deinstall ok config-files\nVersion: 0.8-10\n\n")
    write_apt_lists(root, release, raspberry_pi_os)
    if booted:
        (root / "run/systemd/system").mkdir(parents=True)
    if model is not None:
        (root / "proc/device-tree").mkdir(parents=True)
        (root / "proc/device-tree/model").write_bytes(model.encode() + b"\0")
        (root / "boot/firmware").mkdir(parents=True)
        (root / "boot/firmware/config.txt").write_text(STOCK_CONFIG_TXT)
    return root


def run_install(*args, path_prefix: Path | None = None, timeout: float = 30) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["LC_ALL"] = "C.UTF-8"
    if path_prefix is not None:
        env["PATH"] = f"{path_prefix}:{env.get('PATH', '/usr/bin:/bin')}"
    return subprocess.run(["bash", str(INSTALL), *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=timeout)


def snapshot(root: Path) -> dict:
    """Every path under root with its type, mode and content (or link target)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = ("link", os.readlink(p))
            elif p.is_dir():
                out[rel] = ("dir", st.st_mode)
            else:
                out[rel] = ("file", st.st_mode, hashlib.sha256(p.read_bytes()).hexdigest())
    return out


def step_blocks(stdout: str) -> dict[str, list[str]]:
    """The output lines of each step, by step name, in order."""
    blocks: dict[str, list[str]] = {}
    current = None
    for line in stdout.splitlines():
        if line.startswith("==> ["):
            current = line[5:line.index("]")]
            blocks[current] = []
        elif current is not None and line.startswith("    "):
            blocks[current].append(line.strip())
        elif not line.strip():
            current = None
    return blocks


def step_status(lines: list[str]) -> set[str]:
    """The kinds of outcome a step reported: ok, skipped, changed, would change."""
    kinds = set()
    for line in lines:
        for kind in ("ok:", "skipped:", "changed:", "would change:"):
            if line.startswith(kind):
                kinds.add(kind[:-1])
    return kinds
