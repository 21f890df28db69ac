"""``pegs hw-test --system``: is this Pi set up for this wiring? Stage 1 of the bring-up.

Each check says ok, or what is wrong and the command that fixes it: the Pi model, the
OS, SPI or I2C switched on, the GPIO and LED libraries importable, root for the LEDs of a
Pi 1-4 (with the analog audio off), /dev/pio0 on a Pi 5. Paths and the user id are
injectable so the tests can build a fake Pi.
"""
from __future__ import annotations

import importlib.util
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .leds import pi_generation, read_pi_model

INSTALL = "sudo systemd/install.sh"


@dataclass(frozen=True)
class Check:
    ok: bool
    what: str
    fix: str = ""


def _audio_off(config_txt: str) -> bool:
    setting = None
    for line in config_txt.splitlines():
        m = re.match(r"\s*dtparam=(?:[^#]*,)?audio=(on|off)\b", line)
        if m:
            setting = m.group(1)
    return setting == "off"


def _my_groups() -> set[str]:
    try:
        import grp
        return {grp.getgrgid(g).gr_name for g in os.getgroups()}
    except (ImportError, KeyError, OSError):
        return set()


def system_checks(wiring, *, root: Path = Path("/"), euid: int | None = None, groups: set[str] | None = None,
                  has_module=lambda name: importlib.util.find_spec(name) is not None) -> list[Check]:
    euid = (os.geteuid() if hasattr(os, "geteuid") else 0) if euid is None else euid
    out: list[Check] = []
    model = read_pi_model([root / "proc/device-tree/model", root / "sys/firmware/devicetree/base/model"])
    gen = pi_generation(model)
    if gen is None:
        return [Check(False, f"not a Raspberry Pi (model: {model or 'none'})",
                      "run pegs hw-test --mock on a PC; on the Pi, check /proc/device-tree/model")]
    out.append(Check(True, f"model: {model}"))
    try:
        release = (root / "etc/os-release").read_text()
    except OSError:
        release = ""
    codename = (re.search(r"^VERSION_CODENAME=(\S+)", release, re.M) or [None, "unknown"])[1]
    out.append(Check(codename in ("bookworm", "trixie"), f"OS: {codename}",
                     "" if codename in ("bookworm", "trixie") else
                     "made for Raspberry Pi OS Bookworm or Trixie; flash one of those"))
    s = wiring.sensors
    if s.backend == "shift-register":
        spi = root / "dev/spidev0.0"
        out.append(Check(spi.exists(), f"SPI on ({spi})",
                         "" if spi.exists() else f"{INSTALL} (or sudo raspi-config nonint do_spi 0), then reboot"))
    if s.backend == "mcp23017":
        i2c = root / f"dev/i2c-{s.mcp23017.bus}"
        out.append(Check(i2c.exists(), f"I2C on ({i2c})",
                         "" if i2c.exists() else f"{INSTALL} (or sudo raspi-config nonint do_i2c 0), then reboot"))
        out.append(Check(has_module("smbus2"), "smbus2 (I2C library)",
                         "" if has_module("smbus2") else f"{INSTALL} (the pi extra)"))
    if s.backend in ("shift-register", "gpio"):
        ok = has_module("lgpio")
        out.append(Check(ok, "lgpio (gpiozero's pin and SPI library, from apt)",
                         "" if ok else "sudo apt install python3-lgpio, and a venv with --system-site-packages "
                                       f"({INSTALL} does both)"))
    if euid != 0:
        need = {"shift-register": ["gpio", "spi"], "gpio": ["gpio"], "mcp23017": ["i2c"]}.get(s.backend, [])
        if wiring.leds.driver != "mock" and gen >= 5:
            need = sorted(set(need) | {"gpio"})
        mine = _my_groups() if groups is None else groups
        missing = [g for g in need if g not in mine]
        if need:
            out.append(Check(not missing, f"groups {', '.join(need)} for this user",
                             "" if not missing else f"sudo usermod -aG {','.join(missing)} $USER, then log in "
                                                    f"again (or use sudo)"))
    if wiring.leds.driver != "mock":
        if gen >= 5:
            ok = has_module("adafruit_raspberry_pi5_neopixel_write")
            out.append(Check(ok, "Pi 5 LED driver (adafruit-blinka-raspberry-pi5-neopixel)",
                             "" if ok else f"{INSTALL} (the pi5 extra)"))
            pio = root / "dev/pio0"
            out.append(Check(pio.exists(), f"RP1 PIO device ({pio})",
                             "" if pio.exists() else "sudo apt full-upgrade (kernel and firmware), then reboot"))
        else:
            for module, package in (("neopixel", "adafruit-circuitpython-neopixel"), ("_rpi_ws281x", "rpi_ws281x")):
                ok = has_module(module)
                out.append(Check(ok, f"LED library {package}", "" if ok else f"{INSTALL} (the pi extra)"))
            out.append(Check(euid == 0, "root, for the LEDs (rpi_ws281x maps /dev/mem for PWM on GPIO18)",
                             "" if euid == 0 else "sudo systemctl stop pegs-companion, then sudo pegs hw-test"))
            config = next((p for p in (root / "boot/firmware/config.txt", root / "boot/config.txt") if p.exists()),
                          None)
            text = config.read_text(errors="replace") if config else ""
            ok = _audio_off(text)
            out.append(Check(ok, "analog audio off (it shares the LEDs' PWM)",
                             "" if ok else f"{INSTALL} (it sets dtparam=audio=off), then reboot"))
    return out


def print_system_check(wiring, out=None, **kw) -> int:
    out = out if out is not None else sys.stdout
    checks = system_checks(wiring, **kw)
    print(f"pegs hw-test --system: the Pi's set-up for {wiring.source}", file=out)
    for c in checks:
        print(f"  {'ok  ' if c.ok else 'FIX '} {c.what}" + (f": {c.fix}" if c.fix else ""), file=out)
    bad = [c for c in checks if not c.ok]
    print(f"{len(bad)} thing{'s' * (len(bad) != 1)} to fix." if bad else "  all set: next, one chip "
          f"(pegs hw-test --chips 1 --no-strip)", file=out)
    return 1 if bad else 0
