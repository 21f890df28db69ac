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

# The sentences are messages (ids and parameters, standard library only, no rules): the web
# page shows each in the reader's language; commands, paths and raw errors stay as written.
from companion.message import Msg, msg

from .leds import MODEL_PATHS, LedDriverError, read_pi_model
from .sensors import SoftwareSPIFallback

INSTALL = "sudo systemd/install.sh"
GUIDE = "hardware/README.md, section Troubleshooting"
RESTART = "sudo systemctl restart pegs-companion"


@dataclass(frozen=True)
class HardwareProblem:
    part: str        # "switches" | "LEDs"
    what: str        # what failed, in a sentence (a companion.message.Msg: its str is the English)
    fix: str         # what to do about it (likewise)
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
            "switches", msg("The reed switches can't be read: this is not a Raspberry Pi (no GPIO, SPI or I2C here)."),
            msg("On a PC, use the simulated board: %(setting)s in the config (or %(command)s).",
                setting='board.mode = "simulation"', command="pegs serve --board simulation"), detail)
    if s.backend == "shift-register":
        spi = dev / "spidev0.0"
        if not spi.exists():
            return HardwareProblem(
                "switches", msg("The reed switches can't be read: SPI is off (there is no %(path)s).", path="/dev/spidev0.0"),
                msg("Turn SPI on: run %(install)s again (or %(command)s), then reboot.", install=INSTALL,
                    command="sudo raspi-config nonint do_spi 0"),
                detail)
        if isinstance(exc, PermissionError):
            return HardwareProblem(
                "switches", msg("The reed switches can't be read: no permission to open %(path)s.", path=str(spi)),
                msg("Add the service user to the spi and gpio groups (%(command)s), then %(restart)s.",
                    command="sudo usermod -aG spi,gpio pegs", restart=RESTART), detail)
        if isinstance(exc, SoftwareSPIFallback):
            cause = exc.cause
            if "ermission" in cause:
                fix = msg("Add the service user to the spi and gpio groups (%(command)s), then %(restart)s.",
                          command="sudo usermod -aG spi,gpio pegs", restart=RESTART)
            elif "module" in cause.lower():
                fix = msg("Install the SPI library from apt (%(command)s) and keep the virtual environment's "
                          "--system-site-packages; %(install)s does both.",
                          command="sudo apt install python3-lgpio python3-spidev", install=INSTALL)
            else:
                fix = msg("Check that nothing else holds SPI0 (%(command)s; no other program or overlay on "
                          "GPIO8-11), then restart; %(guide)s lists the usual causes.",
                          command="ls -l " + str(spi), guide=GUIDE)
            return HardwareProblem(
                "switches", msg("The reed switches can't be read: the hardware SPI can't be opened (%(cause)s), and "
                                "the slow bit-banged fallback is not used.", cause=cause), fix, detail)
    if s.backend == "mcp23017":
        bus = dev / f"i2c-{s.mcp23017.bus}"
        if not bus.exists():
            return HardwareProblem(
                "switches", msg("The reed switches can't be read: I2C is off (there is no %(path)s).", path=str(bus)),
                msg("Turn I2C on: run %(install)s again (or %(command)s), then reboot.", install=INSTALL,
                    command="sudo raspi-config nonint do_i2c 0"),
                detail)
        if isinstance(exc, PermissionError):
            return HardwareProblem(
                "switches", msg("The reed switches can't be read: no permission to open %(path)s.", path=str(bus)),
                msg("Add the service user to the %(group)s group (%(command)s), then %(restart)s.",
                    group="i2c", command="sudo usermod -aG i2c pegs", restart=RESTART), detail)
        if isinstance(exc, OSError) and exc.errno in (errno.EREMOTEIO, errno.ENXIO, errno.EIO):
            addrs = ", ".join(f"0x{a:02x}" for a in s.mcp23017.addresses)
            return HardwareProblem(
                "switches", msg("The reed switches can't be read: no MCP23017 answers at %(addresses)s on I2C bus "
                                "%(bus)s.", addresses=addrs, bus=s.mcp23017.bus),
                msg("Check the expanders' power, SDA/SCL wires and address pins; %(command)s lists what answers.",
                    command="i2cdetect -y " + str(s.mcp23017.bus)), detail)
        if isinstance(exc, ImportError):
            return HardwareProblem(
                "switches", msg("The reed switches can't be read: the %(module)s module is missing.",
                                module=exc.name or "smbus2"),
                msg("Run %(install)s again (it installs the pi extra), or %(command)s.", install=INSTALL,
                    command="pip install smbus2"), detail)
    if _is_gpiozero(exc, "BadPinFactory"):
        return HardwareProblem(
            "switches", msg("The reed switches can't be read: no GPIO library works on this %(model)s.", model=model),
            msg("Install lgpio from apt (%(command)s) and keep the virtual environment's "
                "--system-site-packages; %(install)s does both.", command="sudo apt install python3-lgpio",
                install=INSTALL), detail)
    if _is_gpiozero(exc, "GPIOPinInUse", "PinInUse"):
        return HardwareProblem(
            "switches", msg("The reed switches can't be read: a GPIO pin is already in use (%(error)s).", error=str(exc)),
            msg("Stop the other program using it (is %(command)s still running?), and check the wiring for a "
                "pin used twice.", command="pegs hw-test"), detail)
    if isinstance(exc, PermissionError):
        return HardwareProblem(
            "switches", msg("The reed switches can't be read: permission denied (%(path)s).",
                            path=str(exc.filename or exc)),
            msg("Add the service user to the %(group)s group (%(command)s), then %(restart)s.",
                group="gpio", command="sudo usermod -aG gpio pegs", restart=RESTART), detail)
    return HardwareProblem("switches", msg("The reed switches can't be read (%(error)s).", error=detail),
                           msg("Run %(command)s on the Pi to find the fault; %(guide)s lists the usual ones.",
                               command="pegs hw-test", guide=GUIDE),
                           detail)


def diagnose_strip(exc: BaseException, wiring, *, dev: Path = Path("/dev"),
                   model_paths=MODEL_PATHS) -> HardwareProblem:
    """Words for an LED strip that failed to show its first frame with `exc`."""
    detail = _exc_text(exc)
    model = read_pi_model(model_paths) or ""
    if isinstance(exc, LedDriverError):   # its message already says what to do
        fix = (msg("Do what it says, then try the board again.") if model else
               msg("On a PC, use the simulated board: %(setting)s in the config (or %(command)s).",
                   setting='board.mode = "simulation"', command="pegs serve --board simulation"))
        said = exc.args[0] if exc.args and isinstance(exc.args[0], Msg) else str(exc)
        return HardwareProblem("LEDs", msg("The LEDs can't be lit: %(error)s.", error=said), fix, detail)
    if "Raspberry Pi 5" in model and not (dev / "pio0").exists():
        return HardwareProblem(
            "LEDs", msg("The LEDs can't be lit: the Pi 5's PIO device %(path)s is missing.", path="/dev/pio0"),
            msg("Update the firmware and kernel (%(command)s), then run %(install)s again for its "
                "udev rule, and reboot.", command="sudo apt full-upgrade", install=INSTALL), detail)
    if isinstance(exc, PermissionError):
        where = exc.filename or ("/dev/pio0" if "Raspberry Pi 5" in model else "/dev/mem")
        fix = (msg("Run the installer again for the %(path)s udev rule, then reboot.", path="/dev/pio0")
               if "Raspberry Pi 5" in model else
               msg("On a Pi 1-4 the LEDs (PWM on GPIO18) need the service to run as root: run %(command)s "
                   "(the default on a Pi 1-4; it installs the run-as-root drop-in and "
                   "dtparam=audio=off), then reboot.", command=INSTALL + " --pwm-root"))
        return HardwareProblem("LEDs", msg("The LEDs can't be lit: permission denied on %(path)s.", path=str(where)),
                               fix, detail)
    if isinstance(exc, ImportError):
        return HardwareProblem("LEDs", msg("The LEDs can't be lit: the %(module)s module is missing.",
                                           module=str(exc.name)),
                               msg("Run %(install)s again (it installs the LED driver).", install=INSTALL), detail)
    if isinstance(exc, RuntimeError) and "sudo" in str(exc):   # Blinka: "NeoPixel support requires running with sudo"
        return HardwareProblem(
            "LEDs", msg("The LEDs can't be lit: on a Pi 1-4 the LED driver (rpi_ws281x, PWM on GPIO18) needs root."),
            msg("Run %(command)s (the default on a Pi 1-4): it runs the service as root with "
                "dtparam=audio=off; then reboot.", command=INSTALL + " --pwm-root"),
            detail)
    return HardwareProblem("LEDs", msg("The LEDs can't be lit (%(error)s).", error=detail),
                           msg("Run %(command)s on the Pi to find the fault; %(guide)s lists the usual ones.",
                               command="pegs hw-test", guide=GUIDE),
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
