"""systemd/install.sh against a fake Raspberry Pi root (--root), never the real system.

What is checked: every step is printed; --dry-run changes nothing, in the fake
root or outside it; no command that changes a system is run in --root mode
(shims for apt-get, useradd, systemctl, ... fail and log if called); a second
run finds everything done; Pi 5 and the PWM-root variants; the user's config is
never overwritten; a failing step is named; shellcheck is clean.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .system_helpers import (DROPIN, INSTALL, PI5, REPO, STEPS, UNIT, make_fake_root, run_install, snapshot,
                            step_blocks, step_status)

# Real paths install.sh would touch: a --root or --dry-run run must leave them as they were.
REAL_PATHS = [
    "/opt/pegs-companion", "/etc/pegs-companion", "/var/lib/pegs-companion",
    "/etc/systemd/system/pegs-companion.service", "/etc/systemd/system/pegs-companion.service.d",
    "/etc/systemd/system/multi-user.target.wants/pegs-companion.service",
    "/etc/avahi/services/pegs-companion.service", "/etc/udev/rules.d/99-pegs-companion-pio.rules",
    "/etc/modules-load.d/pegs-companion.conf", "/usr/local/bin/pegs",
    "/etc/hostname", "/etc/hosts", "/etc/passwd", "/etc/group",
    "/boot/firmware/config.txt", "/var/lib/dpkg/status",
]


def real_state():
    state = {}
    for p in REAL_PATHS:
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            state[p] = None
            continue
        data = Path(p).read_bytes() if Path(p).is_file() and not Path(p).is_symlink() else None
        state[p] = (st.st_mode, st.st_mtime_ns, data)
    return state


def assert_ok(proc):
    assert proc.returncode == 0, f"exit {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"


def assert_no_commands_run(log: Path):
    calls = log.read_text() if log.exists() else ""
    assert calls == "", f"commands were run in --root/--dry-run mode:\n{calls}"


SOURCE = None  # the frozen project copy to install from (conftest.source_copy)


@pytest.fixture(autouse=True)
def _frozen_source(source_copy):
    global SOURCE
    SOURCE = source_copy


def install(root, *args, shims=None, path_prefix=None):
    """install.sh --root ROOT --source SOURCE ARGS, with the shims (if given) first on PATH."""
    if shims:
        path_prefix = shims[0]
    return run_install("--root", root, "--source", SOURCE, *args, path_prefix=path_prefix)


def test_dry_run_prints_every_step_and_changes_nothing(fake_root, shims):
    before, outside = snapshot(fake_root), real_state()
    proc = install(fake_root, "--dry-run", shims=shims)
    assert_ok(proc)
    headers = [line[5:line.index("]")] for line in proc.stdout.splitlines() if line.startswith("==> [")]
    assert headers == STEPS
    out = proc.stdout
    for expected in [
        "would run: apt-get update",
        "would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "
        "python3-venv python3-dev gcc libc6-dev python3-lgpio python3-spidev avahi-daemon python3-rpi.gpio",
        "would run: useradd --system --user-group --home-dir /var/lib/pegs-companion",
        "would run: usermod --append --groups gpio,spi,i2c,video pegs",
        "would run: python3 -m venv --system-site-packages /opt/pegs-companion/venv",
        "would run: /opt/pegs-companion/venv/bin/python -m pip install --no-cache-dir /opt/pegs-companion/src[pi]",
        f"would write {fake_root}/boot/firmware/config.txt",
        f"would write {fake_root}/etc/modules-load.d/pegs-companion.conf",
        f"would write {fake_root}/etc/pegs-companion/config.toml",
        f"would write {fake_root}/etc/hostname",
        f"would write {fake_root}/etc/avahi/services/pegs-companion.service",
        f"would write {fake_root}/etc/systemd/system/pegs-companion.service",
        "would run: systemctl daemon-reload",
        "would run: systemctl enable pegs-companion.service",
        "would run: systemctl restart pegs-companion.service",
    ]:
        assert expected in out, expected
    blocks = step_blocks(out)
    for step in STEPS[1:]:
        assert step_status(blocks[step]) & {"would change", "skipped"}, (step, blocks[step])
    assert "changed:" not in out
    assert "nothing was changed" in out
    assert snapshot(fake_root) == before
    assert real_state() == outside
    assert_no_commands_run(shims[1])


def test_fake_root_install_then_second_run_changes_nothing(fake_root, shims):
    outside = real_state()
    first = install(fake_root, shims=shims)
    assert_ok(first)
    blocks = step_blocks(first.stdout)
    assert list(blocks) == STEPS
    for step in STEPS[1:]:
        if step != "pi5-led-udev":
            assert "changed" in step_status(blocks[step]), (step, blocks[step])
    assert "(fake root: not run)" in first.stdout
    assert "Reboot once to apply" in first.stdout

    r = fake_root
    assert (r / "etc/systemd/system/pegs-companion.service").read_bytes() == UNIT.read_bytes()
    assert os.readlink(r / "etc/systemd/system/multi-user.target.wants/pegs-companion.service") == \
        "/etc/systemd/system/pegs-companion.service"
    # a Pi 4: runs as root by default, for the LEDs (PWM on GPIO18)
    assert (r / "etc/systemd/system/pegs-companion.service.d/pwm-root.conf").read_bytes() == DROPIN.read_bytes()
    assert os.readlink(r / "usr/local/bin/pegs") == "/opt/pegs-companion/venv/bin/pegs"
    assert (r / "opt/pegs-companion/src/pyproject.toml").is_file()
    assert (r / "opt/pegs-companion/src/web/cli.py").is_file()
    assert not list((r / "opt/pegs-companion/src").rglob("__pycache__"))
    assert (r / "etc/hostname").read_text() == "pegs\n"
    hosts = (r / "etc/hosts").read_text()
    assert "127.0.1.1\tpegs\n" in hosts and "raspberrypi" not in hosts and "127.0.0.1\tlocalhost" in hosts
    config_txt = (r / "boot/firmware/config.txt").read_text()
    backup = (r / "boot/firmware/config.txt.pegs-backup").read_text()
    # the stock audio=on line is commented out (PWM on GPIO18 is the LEDs'), the rest kept as it was
    assert config_txt.startswith(backup.replace(
        "\ndtparam=audio=on\n", "\n#dtparam=audio=on   # pegs-companion: audio off for the LEDs\n"))
    assert config_txt.endswith("[all]\n# added by pegs-companion systemd/install.sh\n"
                               "dtparam=spi=on\ndtparam=i2c_arm=on\ndtparam=audio=off\n")
    assert (r / "etc/modules-load.d/pegs-companion.conf").read_text().endswith("\ni2c-dev\n")
    advert = (r / "etc/avahi/services/pegs-companion.service").read_text()
    assert "<type>_http._tcp</type>" in advert and "<port>8000</port>" in advert
    assert "pegs:x:" in (r / "etc/passwd").read_text()
    groups = {line.split(":")[0]: line.split(":")[3].split(",")
              for line in (r / "etc/group").read_text().splitlines()}
    for g in ("gpio", "spi", "i2c", "video"):
        assert "pegs" in groups[g] and "pi" in groups[g]
    assert "pegs" in groups
    conf = r / "etc/pegs-companion/config.toml"
    assert "port = 8000" in conf.read_text()
    assert oct(conf.stat().st_mode & 0o777) == "0o660"     # it holds the admin code
    code = re.search(r'^admin_code = "(\d{8})"$', conf.read_text(), re.M).group(1)
    assert f"Settings page: http://pegs.local:8000/settings - admin code {code}" in first.stdout
    assert (r / "etc/pegs-companion/config.example.toml").read_bytes() == \
        (REPO / "systemd/config.example.toml").read_bytes()
    assert not (r / "etc/udev/rules.d/99-pegs-companion-pio.rules").exists()  # a Pi 4

    before = snapshot(r)
    second = install(r, shims=shims)
    assert_ok(second)
    blocks = step_blocks(second.stdout)
    assert list(blocks) == STEPS
    for step in STEPS:
        assert step_status(blocks[step]) <= {"ok", "skipped"} and step_status(blocks[step]), (step, blocks[step])
    assert "Everything was already in place: nothing changed." in second.stdout
    assert "+ " not in second.stdout  # no command at all
    assert snapshot(r) == before
    assert real_state() == outside
    assert_no_commands_run(shims[1])


def test_pi5_gets_pi5_extra_and_udev_rule(tmp_path, shims):
    root = make_fake_root(tmp_path / "root", model=PI5)
    proc = install(root, shims=shims)
    assert_ok(proc)
    out = proc.stdout
    assert "extras: pi,pi5" in out
    assert "python3-rpi-lgpio" not in out and "python3-rpi.gpio" not in out   # nothing needs them on a Pi 5
    assert "pip install --no-cache-dir /opt/pegs-companion/src[pi,pi5]" in out
    assert "uninstall" not in out
    rule = (root / "etc/udev/rules.d/99-pegs-companion-pio.rules").read_text()
    assert 'SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"' in rule
    assert "udevadm control --reload-rules" in out
    again = install(root, shims=shims)
    assert_ok(again)
    assert "Everything was already in place" in again.stdout
    assert_no_commands_run(shims[1])


def test_pi5_rule_left_to_the_os_when_it_has_one(tmp_path, shims):
    root = make_fake_root(tmp_path / "root", model=PI5)
    (root / "etc/udev/rules.d").mkdir(parents=True)
    (root / "etc/udev/rules.d/99-com.rules").write_text('SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"\n')
    proc = install(root, shims=shims)
    assert_ok(proc)
    assert "already gives /dev/pio0 to group gpio" in proc.stdout
    assert not (root / "etc/udev/rules.d/99-pegs-companion-pio.rules").exists()


def test_pwm_root_dropin_added_kept_and_removed(fake_root, shims):
    dropin = fake_root / "etc/systemd/system/pegs-companion.service.d/pwm-root.conf"
    proc = install(fake_root, "--pwm-root", shims=shims)
    assert_ok(proc)
    assert dropin.read_bytes() == DROPIN.read_bytes()
    assert "dtparam=audio=off" in (fake_root / "boot/firmware/config.txt").read_text()

    kept = install(fake_root, shims=shims)  # no flag: the choice stays
    assert_ok(kept)
    assert dropin.exists() and "Everything was already in place" in kept.stdout
    assert "runs as root" in kept.stdout

    removed = install(fake_root, "--no-pwm-root", shims=shims)
    assert_ok(removed)
    assert not dropin.exists()
    assert "systemctl daemon-reload" in removed.stdout
    assert "systemctl restart pegs-companion.service" in removed.stdout

    again = install(fake_root, "--no-pwm-root", shims=shims)
    assert_ok(again)
    assert "Everything was already in place" in again.stdout
    assert_no_commands_run(shims[1])


def test_pwm_root_is_refused_on_a_pi5(tmp_path):
    root = make_fake_root(tmp_path / "root", model=PI5)
    before = snapshot(root)
    proc = install(root, "--pwm-root")
    assert proc.returncode == 2
    assert "--pwm-root is for a Pi 1-4" in proc.stderr
    assert snapshot(root) == before


def test_existing_config_is_never_overwritten_and_its_port_is_advertised(fake_root, shims):
    conf = fake_root / "etc/pegs-companion/config.toml"
    conf.parent.mkdir(parents=True)
    mine = "# mine\n[serve]\nport = 9000\nbot_delay = 2\n"
    conf.write_text(mine)
    proc = install(fake_root, shims=shims)
    assert_ok(proc)
    assert conf.read_text() == mine
    assert "kept as it is" in proc.stdout
    assert "<port>9000</port>" in (fake_root / "etc/avahi/services/pegs-companion.service").read_text()

    other = install(fake_root, "--port", "8001", shims=shims)
    assert_ok(other)
    assert conf.read_text() == mine
    assert "says port = 9000" in other.stderr


def test_default_config_is_accepted_by_pegs_serve(fake_root, tmp_path, shims):
    assert_ok(install(fake_root, "--port", "8123", shims=shims))
    from web.cli import resolve

    conf = resolve(["--config", str(fake_root / "etc/pegs-companion/config.toml"),
                    "--data-dir", str(tmp_path / "data")])
    assert conf["port"] == 8123
    assert conf["host"] == "0.0.0.0"


def test_keep_hostname_camera_and_extras_options(fake_root, shims):
    proc = install(fake_root, "--keep-hostname", "--camera", "--extras", "pi,vision",
                   "--hostname", "table1", "--no-start", shims=shims)
    assert_ok(proc)
    assert (fake_root / "etc/hostname").read_text() == "raspberrypi\n"
    assert "python3-picamera2 python3-opencv python3-numpy" in proc.stdout
    assert "/opt/pegs-companion/src[pi,vision]" in proc.stdout
    assert "systemctl restart" not in proc.stdout
    assert "skipped: --no-start" in proc.stdout


def test_not_a_pi_installs_without_hardware_extras(tmp_path, shims):
    root = make_fake_root(tmp_path / "root", model=None)
    proc = install(root, shims=shims)
    assert_ok(proc)
    assert "not a Raspberry Pi" in proc.stderr
    assert "pip install --no-cache-dir /opt/pegs-companion/src " in proc.stdout + " "
    assert "src[" not in proc.stdout
    assert "skipped: no /boot/firmware/config.txt" in proc.stdout


def test_a_failing_command_names_its_step(fake_root, tmp_path):
    # sha256sum runs in every mode (it fingerprints the sources in step python-package)
    shim = tmp_path / "failing"
    shim.mkdir()
    (shim / "sha256sum").write_text('#!/bin/sh\necho "sha256sum: simulated failure" >&2\nexit 3\n')
    (shim / "sha256sum").chmod(0o755)
    proc = install(fake_root, path_prefix=shim)
    assert proc.returncode != 0
    assert 'step "python-package" FAILED' in proc.stderr
    assert "sha256sum" in proc.stderr  # the command is shown
    assert "==> [venv]" in proc.stdout and "==> [pegs-command]" not in proc.stdout
    # fixed, it goes on from there
    again = install(fake_root)
    assert_ok(again)
    blocks = step_blocks(again.stdout)
    assert step_status(blocks["apt-packages"]) == {"ok"}
    assert "changed" in step_status(blocks["python-package"])


def test_a_failing_file_write_names_its_step(fake_root):
    (fake_root / "etc/avahi").mkdir(parents=True)
    (fake_root / "etc/avahi/services").write_text("not a directory")
    proc = install(fake_root)
    assert proc.returncode != 0
    assert 'step "avahi-service" FAILED' in proc.stderr
    assert "==> [systemd-unit]" not in proc.stdout


@pytest.mark.parametrize("args, message", [
    (["--bogus"], "unknown option: --bogus"),
    (["--port", "http"], "--port http"),
    (["--hostname", "Pegs_Table"], "--hostname Pegs_Table"),
])
def test_bad_options_stop_before_any_step(fake_root, args, message):
    before = snapshot(fake_root)
    proc = install(fake_root, *args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert snapshot(fake_root) == before


def test_missing_root_directory_is_an_error(tmp_path):
    proc = run_install("--root", tmp_path / "nowhere")
    assert proc.returncode == 2 and "no such directory" in proc.stderr


@pytest.mark.skipif(os.geteuid() == 0 and shutil.which("setpriv") is None,
                    reason="running as root without setpriv (util-linux) to drop to nobody: a real run would really install")
def test_real_run_needs_root():
    # As root (CI in a container), the script runs as nobody, so it must refuse and change nothing.
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    proc = subprocess.run([*drop, "bash", str(INSTALL)], capture_output=True, text=True,
                          env={**os.environ, "LC_ALL": "C.UTF-8"}, timeout=30)
    assert proc.returncode == 2
    assert "run it as root" in proc.stderr


def test_help():
    proc = run_install("--help")
    assert_ok(proc)
    for option in ("--dry-run", "--root", "--camera", "--pwm-root", "--port", "--hostname"):
        assert option in proc.stdout


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed (apt package shellcheck)")
def test_shellcheck_is_clean():
    proc = subprocess.run(["shellcheck", "--severity=style", str(INSTALL)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_script_is_strict_bash():
    head = INSTALL.read_text().splitlines()
    assert head[0] == "#!/usr/bin/env bash"
    assert "set -Eeuo pipefail" in head
    assert os.access(INSTALL, os.X_OK)
