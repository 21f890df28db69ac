"""Why the board's hardware would not start, and how to fix it, in words for the table page.

`open_hardware` opens a `Hardware` for real (the switches are read once, the
strip shows one dark frame) and turns any failure into a `HardwareProblem`:
*what* failed, *how to fix it*, and the raw error for the log. It knows the
usual causes on a Raspberry Pi: SPI or I2C switched off, the service user
outside the gpio/spi/i2c groups, no GPIO library, a pin held by another
program, an expander that doesn't answer, the LED driver not installed or
needing root. Nothing here knows the rules of the game.
"""
from __future__ import annotations

import errno
from dataclasses import dataclass
from pathlib import Path

from .leds import MODEL_PATHS, LedDriverError, read_pi_model
from .sensors import SoftwareSPIFallback

INSTALL = "sudo systemd/install.sh"
GUIDE = "hardware/README.md, section Troubleshooting"


@dataclass(frozen=True)
class HardwareProblem:
    part: str        # "switches" | "LEDs"
    what: str        # what failed, in a sentence
    fix: str         # what to do about it
    detail: str      # the original error, for the log

    def public(self) -> dict:
        return {"part": self.part, "what": self.what, "fix": self.fix, "detail": self.detail}

    def __str__(self) -> str:
        return f"{self.what} {self.fix}"


def _exc_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _is_gpiozero(exc: BaseException, *names: str) -> bool:
    cls = type(exc)
    return cls.__module__.startswith("gpiozero") and (not names or any(
        c.__name__ in names for c in cls.__mro__))


def diagnose_sensor(exc: BaseException, wiring, *, dev: Path = Path("/dev"),
                    model_paths=MODEL_PATHS) -> HardwareProblem:
    """Words for a reed-switch sensor that failed to open with `exc`."""
    s = wiring.sensors
    detail = _exc_text(exc)
    model = read_pi_model(model_paths)
    if model is None or "Raspberry Pi" not in model:
        return HardwareProblem(
            "switches", "The reed switches can't be read: this is not a Raspberry Pi (no GPIO, SPI or I2C here).",
            "On a PC, use the simulated board: board.mode = \"simulation\" in the config "
            "(or pegs serve --board simulation).", detail)
    if s.backend == "shift-register":
        spi = dev / "spidev0.0"
        if not spi.exists():
            return HardwareProblem(
                "switches", "The reed switches can't be read: SPI is off (there is no /dev/spidev0.0).",
                f"Turn SPI on: run {INSTALL} again (or sudo raspi-config nonint do_spi 0), then reboot.",
                detail)
        if isinstance(exc, PermissionError):
            return HardwareProblem(
                "switches", f"The reed switches can't be read: no permission to open {spi}.",
                "Add the service user to the spi and gpio groups (sudo usermod -aG spi,gpio pegs), then "
                "sudo systemctl restart pegs-companion.", detail)
        if isinstance(exc, SoftwareSPIFallback):
            cause = exc.cause
            if "ermission" in cause:
                fix = ("Add the service user to the spi and gpio groups (sudo usermod -aG spi,gpio pegs), "
                       "then sudo systemctl restart pegs-companion.")
            elif "module" in cause.lower():
                fix = (f"Install the SPI library from apt (sudo apt install python3-lgpio python3-spidev) and "
                       f"keep the virtual environment's --system-site-packages; {INSTALL} does both.")
            else:
                fix = (f"Check that nothing else holds SPI0 (ls -l {spi}; no other program or overlay on "
                       f"GPIO8-11), then restart; {GUIDE} lists the usual causes.")
            return HardwareProblem(
                "switches", f"The reed switches can't be read: the hardware SPI can't be opened ({cause}), and "
                f"the slow bit-banged fallback is not used.", fix, detail)
    if s.backend == "mcp23017":
        bus = dev / f"i2c-{s.mcp23017.bus}"
        if not bus.exists():
            return HardwareProblem(
                "switches", f"The reed switches can't be read: I2C is off (there is no {bus}).",
                f"Turn I2C on: run {INSTALL} again (or sudo raspi-config nonint do_i2c 0), then reboot.",
                detail)
        if isinstance(exc, PermissionError):
            return HardwareProblem(
                "switches", f"The reed switches can't be read: no permission to open {bus}.",
                "Add the service user to the i2c group (sudo usermod -aG i2c pegs), then "
                "sudo systemctl restart pegs-companion.", detail)
        if isinstance(exc, OSError) and exc.errno in (errno.EREMOTEIO, errno.ENXIO, errno.EIO):
            addrs = ", ".join(f"0x{a:02x}" for a in s.mcp23017.addresses)
            return HardwareProblem(
                "switches", f"The reed switches can't be read: no MCP23017 answers at {addrs} on I2C bus "
                f"{s.mcp23017.bus}.",
                f"Check the expanders' power, SDA/SCL wires and address pins; i2cdetect -y {s.mcp23017.bus} "
                f"lists what answers.", detail)
        if isinstance(exc, ImportError):
            return HardwareProblem(
                "switches", f"The reed switches can't be read: the {exc.name or 'smbus2'} module is missing.",
                f"Run {INSTALL} again (it installs the pi extra), or pip install smbus2.", detail)
    if _is_gpiozero(exc, "BadPinFactory"):
        return HardwareProblem(
            "switches", f"The reed switches can't be read: no GPIO library works on this {model}.",
            f"Install lgpio from apt (sudo apt install python3-lgpio) and keep the virtual environment's "
            f"--system-site-packages; {INSTALL} does both.", detail)
    if _is_gpiozero(exc, "GPIOPinInUse", "PinInUse"):
        return HardwareProblem(
            "switches", f"The reed switches can't be read: a GPIO pin is already in use ({exc}).",
            "Stop the other program using it (is pegs hw-test still running?), and check the wiring for a "
            "pin used twice.", detail)
    if isinstance(exc, PermissionError):
        return HardwareProblem(
            "switches", f"The reed switches can't be read: permission denied ({exc.filename or exc}).",
            "Add the service user to the gpio group (sudo usermod -aG gpio pegs), then "
            "sudo systemctl restart pegs-companion.", detail)
    return HardwareProblem("switches", f"The reed switches can't be read ({detail}).",
                           f"Run pegs hw-test on the Pi to find the fault; {GUIDE} lists the usual ones.",
                           detail)


def diagnose_strip(exc: BaseException, wiring, *, dev: Path = Path("/dev"),
                   model_paths=MODEL_PATHS) -> HardwareProblem:
    """Words for an LED strip that failed to show its first frame with `exc`."""
    detail = _exc_text(exc)
    model = read_pi_model(model_paths) or ""
    if isinstance(exc, LedDriverError):   # its message already says what to do
        fix = ("Do what it says, then try the board again." if model else
               "On a PC, use the simulated board: board.mode = \"simulation\" in the config "
               "(or pegs serve --board simulation).")
        return HardwareProblem("LEDs", f"The LEDs can't be lit: {exc}.", fix, detail)
    if "Raspberry Pi 5" in model and not (dev / "pio0").exists():
        return HardwareProblem(
            "LEDs", "The LEDs can't be lit: the Pi 5's PIO device /dev/pio0 is missing.",
            f"Update the firmware and kernel (sudo apt full-upgrade), then run {INSTALL} again for its "
            f"udev rule, and reboot.", detail)
    if isinstance(exc, PermissionError):
        where = exc.filename or ("/dev/pio0" if "Raspberry Pi 5" in model else "/dev/mem")
        fix = ("Run the installer again for the /dev/pio0 udev rule, then reboot." if "Raspberry Pi 5" in model
               else f"On a Pi 1-4 the LEDs (PWM on GPIO18) need the service to run as root: run {INSTALL} "
                    f"--pwm-root (the default on a Pi 1-4; it installs the run-as-root drop-in and "
                    f"dtparam=audio=off), then reboot.")
        return HardwareProblem("LEDs", f"The LEDs can't be lit: permission denied on {where}.", fix, detail)
    if isinstance(exc, ImportError):
        return HardwareProblem("LEDs", f"The LEDs can't be lit: the {exc.name} module is missing.",
                               f"Run {INSTALL} again (it installs the LED driver).", detail)
    if isinstance(exc, RuntimeError) and "sudo" in str(exc):   # Blinka: "NeoPixel support requires running with sudo"
        return HardwareProblem(
            "LEDs", "The LEDs can't be lit: on a Pi 1-4 the LED driver (rpi_ws281x, PWM on GPIO18) needs root.",
            f"Run {INSTALL} --pwm-root (the default on a Pi 1-4): it runs the service as root with "
            f"dtparam=audio=off; then reboot.",
            detail)
    return HardwareProblem("LEDs", f"The LEDs can't be lit ({detail}).",
                           f"Run pegs hw-test on the Pi to find the fault; {GUIDE} lists the usual ones.",
                           detail)


def open_hardware(hw, *, sensing: bool = True, dev: Path = Path("/dev"),
                  model_paths=MODEL_PATHS) -> list[HardwareProblem]:
    """Open `hw` (a `hardware.devices.Hardware`) for real: one scan of the switches (if
    `sensing`), one dark LED frame. Returns the problems found (empty: it works)."""
    problems = []
    if sensing and hw.wiring.sensors.backend != "none":
        try:
            sensor = hw.sensor
            if sensor is not None:
                sensor.scan(hw.clock())
        except Exception as exc:   # whatever the driver raised is diagnosed, never fatal
            problems.append(diagnose_sensor(exc, hw.wiring, dev=dev, model_paths=model_paths))
            hw.__dict__.pop("sensor", None)
    try:
        hw.leds.update(hw.clock())
        hw.strip.show([(0, 0, 0)] * hw.strip.count)
    except Exception as exc:
        problems.append(diagnose_strip(exc, hw.wiring, dev=dev, model_paths=model_paths))
    return problems


__all__ = ["HardwareProblem", "diagnose_sensor", "diagnose_strip", "open_hardware"]
