"""systemd/install.sh on three fake Pis (issue 15): a Pi 4 on Bookworm, a Pi 5 on Bookworm and
a Pi 4 on Trixie, told apart only by a faked /proc/device-tree/model and /etc/os-release.
Each gets the packages, groups, config.txt lines, unit drop-ins and service user it needs."""
from __future__ import annotations

import re

import pytest

from .system_helpers import DROPIN, PI4, PI5, make_fake_root, run_install

BASE = ["python3-venv", "python3-dev", "gcc", "libc6-dev", "python3-lgpio", "python3-spidev", "avahi-daemon"]

CASES = {
    # name: (model, release, extra apt packages, extras, runs as root)
    "pi4-bookworm": (PI4, "bookworm", ["python3-rpi.gpio"], "pi", True),
    "pi5-bookworm": (PI5, "bookworm", [], "pi,pi5", False),
    "pi4-trixie": (PI4, "trixie", ["python3-rpi-lgpio"], "pi", True),
}


@pytest.fixture
def install(tmp_path, source_copy):
    def run(root, *args):
        proc = run_install("--root", root, "--source", source_copy, *args)
        assert proc.returncode == 0, f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        return proc
    return run


def apt_install_line(out: str) -> list[str]:
    (line,) = [l for l in out.splitlines() if "apt-get install -y --no-install-recommends" in l]
    return line.split("--no-install-recommends ", 1)[1].split("   (fake root")[0].split()


def dpkg_installed(root) -> set[str]:
    text = (root / "var/lib/dpkg/status").read_text()
    return {m.group(1) for m in re.finditer(r"Package: (\S+)\nStatus: install ok installed", text)}


@pytest.mark.parametrize("case", CASES)
def test_each_pi_and_os_gets_what_it_needs(tmp_path, install, case):
    model, release, extra, extras, as_root = CASES[case]
    root = make_fake_root(tmp_path / "root", model=model, release=release)
    proc = install(root)
    out = proc.stdout

    # packages: the GPIO libraries from the OS, never RPi.GPIO from pip
    assert apt_install_line(out) == BASE + extra
    assert set(BASE + extra) <= dpkg_installed(root)
    never = {"python3-rpi.gpio", "python3-rpi-lgpio"} - set(extra)   # the two can't both be installed
    assert not never & dpkg_installed(root)
    assert f"pip install --no-cache-dir /opt/pegs-companion/src[{extras}]" in out
    assert "uninstall" not in out
    assert f"OS: {release}; extras: {extras}" in out

    # groups: pegs joins the device groups either way
    groups = {line.split(":")[0]: line.split(":")[3].split(",") for line in
              (root / "etc/group").read_text().splitlines()}
    for g in ("gpio", "spi", "i2c", "video"):
        assert "pegs" in groups[g], g

    # config.txt: SPI and I2C on; audio off (and the stock audio=on commented out) when PWM LEDs
    config_txt = (root / "boot/firmware/config.txt").read_text()
    active = [l.strip() for l in config_txt.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    assert "dtparam=spi=on" in active and "dtparam=i2c_arm=on" in active
    if as_root:
        assert "dtparam=audio=off" in active and "dtparam=audio=on" not in active
    else:
        assert "dtparam=audio=on" in active and "dtparam=audio=off" not in active

    # the unit's drop-in and who the service runs as
    dropin = root / "etc/systemd/system/pegs-companion.service.d/pwm-root.conf"
    udev = root / "etc/udev/rules.d/99-pegs-companion-pio.rules"
    if as_root:
        assert dropin.read_bytes() == DROPIN.read_bytes() and "User=root" in dropin.read_text()
        assert "service user: root" in out
        assert "only root may map it" in out and "dtparam=audio=off is set too" in out
        assert "The service runs as root: the LEDs of a Pi 1-4 need it" in out
        assert "sudo systemctl stop pegs-companion, then sudo pegs hw-test" in out
        assert not udev.exists()
    else:
        assert not dropin.exists()
        assert "service user: pegs" in out and "no root needed" in out
        assert "adafruit-blinka-raspberry-pi5-neopixel==1.0.0rc2: a release candidate" in out
        assert 'GROUP="gpio"' in udev.read_text()

    again = install(root)
    assert "Everything was already in place" in again.stdout


def test_no_pwm_root_on_a_pi4_is_remembered(tmp_path, install):
    root = make_fake_root(tmp_path / "root", model=PI4, release="trixie")
    dropin = root / "etc/systemd/system/pegs-companion.service.d/pwm-root.conf"
    install(root)
    assert dropin.exists()
    out = install(root, "--no-pwm-root")
    assert not dropin.exists()
    assert "runs as user pegs (--no-pwm-root): on a Pi 1-4 the LED strip can't light" in out.stderr
    later = install(root)                      # a plain re-run (after git pull) keeps the choice
    assert not dropin.exists() and "Everything was already in place" in later.stdout
    install(root, "--pwm-root")
    assert dropin.exists() and not (root / "opt/pegs-companion/no-pwm-root").exists()
    assert "dtparam=audio=off" in (root / "boot/firmware/config.txt").read_text()


def test_pip_extras_leave_the_gpio_libraries_to_the_os():
    """The pi extra names rpi_ws281x (Blinka declares it only in wheels built on a Pi) and no
    GPIO library (those come from apt); the Pi 5 LED package is pinned, being a release candidate."""
    import tomllib

    from .system_helpers import REPO
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = [re.split(r"[<>=;! ]", r, maxsplit=1)[0].lower() for r in extras["pi"]]
    assert "rpi_ws281x" in names and "adafruit-circuitpython-neopixel" in names
    assert not {"rpi.gpio", "rpi-lgpio", "lgpio", "spidev"} & set(names)
    assert extras["pi5"] == ["adafruit-blinka-raspberry-pi5-neopixel==1.0.0rc2"]
