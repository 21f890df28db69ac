"""systemd/pegs-companion.service and its drop-in pwm-root.conf.

`systemd-analyze verify` (when installed: apt package systemd) checks the unit
as systemd would load it; since the real ExecStart binary
(/opt/pegs-companion/venv/bin/pegs) doesn't exist here, the unit is verified as
a copy whose ExecStart points at a fake executable in a temporary directory,
with the drop-in beside it. The rest reads the unit's settings.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .system_helpers import DROPIN, INSTALL, UNIT

EXEC = "/opt/pegs-companion/venv/bin/pegs"
needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze not installed (apt package systemd)")


def parse_unit(*texts: str) -> dict[str, dict[str, list[str]]]:
    """Sections -> key -> values (in order), for a unit and its drop-ins; an
    empty assignment resets the list, as systemd does."""
    out: dict[str, dict[str, list[str]]] = {}
    for text in texts:
        section = None
        lines = text.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            while line.endswith("\\") and i + 1 < len(lines):  # continuation lines
                i += 1
                line = line[:-1] + " " + lines[i].strip()
            i += 1
            if not line or line[0] in "#;":
                continue
            if line.startswith("["):
                section = line.strip("[]")
                out.setdefault(section, {})
                continue
            key, _, value = line.partition("=")
            values = out[section].setdefault(key.strip(), [])
            if value.strip() == "":
                values.clear()
            values.append(value.strip())
    return out


@pytest.fixture(scope="module")
def unit():
    return parse_unit(UNIT.read_text())


def one(unit, section, key):
    values = unit[section].get(key)
    assert values, f"{key}= missing from [{section}]"
    return values[-1]


def staged(tmp_path: Path, with_dropin: bool) -> Path:
    """A copy of the unit (and the drop-in) whose ExecStart runs a fake pegs in tmp_path."""
    fake = tmp_path / "venv/bin/pegs"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    text = UNIT.read_text()
    assert text.count(EXEC) == 1
    unit_dir = tmp_path / "units"
    unit_dir.mkdir()
    path = unit_dir / "pegs-companion.service"
    path.write_text(text.replace(EXEC, str(fake)))
    if with_dropin:
        d = unit_dir / "pegs-companion.service.d"
        d.mkdir()
        shutil.copy(DROPIN, d / "pwm-root.conf")
    return path


def analyze(*args, timeout=60):
    return subprocess.run(["systemd-analyze", *args], capture_output=True, text=True, timeout=timeout)


@needs_analyze
@pytest.mark.parametrize("with_dropin", [False, True], ids=["unit", "unit+pwm-root.conf"])
def test_systemd_analyze_verify(tmp_path, with_dropin):
    path = staged(tmp_path, with_dropin)
    proc = analyze("verify", "--man=no", str(path))
    output = proc.stdout + proc.stderr
    # Warnings (unknown keys, bad values) don't change the exit status: any
    # line about our files or unit is a failure. Lines about the host's own
    # units are not ours to judge.
    ours = [line for line in output.splitlines() if str(tmp_path) in line or "pegs-companion" in line]
    assert proc.returncode == 0 and not ours, output


def security_report(path: Path) -> str | None:
    proc = analyze("security", "--offline=yes", "--man=no", "--no-pager", str(path))
    if proc.returncode != 0 and "offline" in proc.stderr:
        return None
    return proc.stdout + proc.stderr


@needs_analyze
def test_security_runs_unprivileged_and_root_only_with_the_dropin(tmp_path):
    plain = security_report(staged(tmp_path / "a", with_dropin=False))
    if plain is None:
        pytest.skip("systemd-analyze security --offline needs systemd 250+")
    root = security_report(staged(tmp_path / "b", with_dropin=True))

    def mark(report, key):
        for line in report.splitlines():
            if key in line:
                return line.strip()[0]
        raise AssertionError(f"{key} not in report:\n{report}")

    assert mark(plain, "User=/DynamicUser=") == "✓", plain
    assert mark(plain, "CapabilityBoundingSet=~CAP_SYS_RAWIO") == "✓", plain
    assert mark(plain, "NoNewPrivileges=") == "✓"
    assert mark(plain, "PrivateTmp=") == "✓"
    # the drop-in: root, with CAP_SYS_RAWIO back for rpi_ws281x's /dev/mem
    assert mark(root, "User=/DynamicUser=") == "✗", root
    assert mark(root, "CapabilityBoundingSet=~CAP_SYS_RAWIO") == "✗", root
    level = re.search(r"Overall exposure level for \S+: ([\d.]+)", plain)
    assert level and float(level.group(1)) <= 5.0, plain


def test_service_basics(unit):
    assert one(unit, "Service", "Type") == "simple"  # no sd_notify in the app
    assert "WatchdogSec" not in unit["Service"]       # see the comment in the unit
    assert one(unit, "Service", "Restart") == "on-failure"
    assert int(one(unit, "Unit", "StartLimitBurst")) >= 3
    assert int(one(unit, "Unit", "StartLimitIntervalSec")) >= 60
    assert int(one(unit, "Service", "RestartSec")) >= 1
    assert one(unit, "Service", "StandardOutput") == "journal"
    assert one(unit, "Service", "StandardError") == "journal"
    assert one(unit, "Service", "User") == "pegs"
    assert one(unit, "Service", "StateDirectory") == "pegs-companion"
    assert one(unit, "Service", "ConfigurationDirectory") == "pegs-companion"
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


def test_exec_start_runs_pegs_serve_with_config_and_data_dir(unit):
    argv = one(unit, "Service", "ExecStart").split()
    assert argv[0] == EXEC
    assert argv[1] == "serve"
    opts = dict(zip(argv[2::2], argv[3::2]))
    assert opts == {"--config": "/etc/pegs-companion/config.toml", "--data-dir": "/var/lib/pegs-companion"}
    # the venv the installer makes is the one ExecStart runs
    script = INSTALL.read_text()
    assert "readonly PREFIX=/opt/pegs-companion\n" in script and "readonly VENV=$PREFIX/venv\n" in script


def test_exec_start_options_are_ones_pegs_serve_accepts(unit, tmp_path):
    from web.cli import resolve

    conf = tmp_path / "config.toml"
    conf.write_text("[serve]\nport = 8000\n")
    argv = one(unit, "Service", "ExecStart").split()[2:]
    argv = [str(conf) if a == "/etc/pegs-companion/config.toml" else
            str(tmp_path / "data") if a == "/var/lib/pegs-companion" else a for a in argv]
    settings = resolve(argv)
    assert settings["data_dir"] == str(tmp_path / "data")


def test_working_directory_is_writable(unit):
    # lgpio makes its .lgd-nfy* pipes in the current directory (gpiozero#1106)
    assert one(unit, "Service", "RuntimeDirectory") == "pegs-companion"
    assert one(unit, "Service", "WorkingDirectory") == "/run/pegs-companion"


def test_hardening_keeps_the_hardware_reachable(unit):
    s = unit["Service"]
    assert one(unit, "Service", "ProtectSystem") == "strict"
    assert set(one(unit, "Service", "ReadWritePaths").split()) == {"/var/lib/pegs-companion", "/etc/pegs-companion"}
    for key in ("PrivateTmp", "NoNewPrivileges", "ProtectHome"):
        assert one(unit, "Service", key) == "yes", key
    # each of these hides /dev/gpiochip*, /dev/spidev*, /dev/i2c-*, /dev/pio0,
    # /dev/mem or the Pi's model (see the comments in the unit)
    for key in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock", "ProtectKernelTunables",
                "ProcSubset", "PrivateUsers", "MemoryDenyWriteExecute"):
        assert key not in s, key
    families = one(unit, "Service", "RestrictAddressFamilies").split()
    assert {"AF_UNIX", "AF_INET", "AF_INET6"} <= set(families)


def test_pwm_root_dropin_switches_to_root_and_back_to_full_capabilities(unit):
    merged = parse_unit(UNIT.read_text(), DROPIN.read_text())
    assert one(merged, "Service", "User") == "root"
    assert one(merged, "Service", "Group") == "root"
    assert one(merged, "Service", "CapabilityBoundingSet") == "~"
    assert one(unit, "Service", "CapabilityBoundingSet") == ""
    # nothing but the identity and the capabilities changes
    assert set(parse_unit(DROPIN.read_text())["Service"]) == {"User", "Group", "CapabilityBoundingSet"}
