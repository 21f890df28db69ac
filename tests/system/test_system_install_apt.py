"""systemd/install.sh in fake roots (issue 26): what apt is asked for (only what it has),
the GPIO libraries from PyPI where apt lacks them, a system without systemd as PID 1,
steps whose command did not finish, the error report, and the closing lines.

The same script runs for real in arm64 roots in test_system_arm64.py; these fake roots
cover what a chroot can't be: Pi models, boot config files, a booted system."""
from __future__ import annotations

import re

import pytest

from .system_helpers import INSTALL, PI5, make_fake_root, run_install, snapshot, step_blocks, step_status, \
    write_apt_lists


@pytest.fixture
def install(source_copy, shims):
    def run(root, *args, ok=True):
        proc = run_install("--root", root, "--source", source_copy, *args, path_prefix=shims[0])
        if ok:
            assert proc.returncode == 0, f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        assert not shims[1].exists(), shims[1].read_text()   # no command ever runs in a fake root
        return proc
    return run


def apt_line(out: str) -> list[str]:
    lines = [l for l in out.splitlines() if "apt-get install -y --no-install-recommends" in l]
    if not lines:
        return []
    (line,) = lines
    return line.split("--no-install-recommends ", 1)[1].split("   (fake root")[0].split()


def pip_line(out: str) -> str:
    (line,) = [l for l in out.splitlines() if "-m pip install" in l]
    return line


def test_plain_debian_on_a_pi_gets_the_gpio_libraries_from_pypi(tmp_path, install):
    root = make_fake_root(tmp_path / "root", raspberry_pi_os=False)      # a Pi 4, Bookworm, Debian's archive only
    dry = install(root, "--dry-run")
    assert "python3-lgpio" not in apt_line(dry.stdout) and "python3-rpi.gpio" not in apt_line(dry.stdout)
    assert "not in this system's apt sources (Raspberry Pi OS's archive has them): python3-lgpio python3-rpi.gpio" \
        in dry.stdout
    assert "instead from PyPI, into the venv: lgpio>=0.2 rpi-lgpio" in dry.stdout
    assert "'lgpio>=0.2' rpi-lgpio" in pip_line(dry.stdout)

    first = install(root)
    assert apt_line(first.stdout) == ["python3-venv", "python3-dev", "gcc", "libc6-dev", "python3-spidev",
                                      "avahi-daemon"]
    stamp = (root / "opt/pegs-companion/installed-from").read_text()
    assert stamp.endswith(" pypi=lgpio>=0.2,rpi-lgpio\n")

    # again: apt's lists aren't updated again for what it lacked, nothing changes
    before = snapshot(root)
    again = install(root)
    assert "Everything was already in place: nothing changed." in again.stdout
    assert "apt-get update" not in again.stdout and "    + " not in again.stdout
    assert snapshot(root) == before

    # a source added to apt (its lists not yet updated): updated again, once
    (root / "etc/apt/sources.list.d").mkdir(parents=True)
    (root / "etc/apt/sources.list.d/raspi.list").write_text("deb http://archive.invalid/ bookworm main\n")
    assert "+ apt-get update" in install(root).stdout
    assert "apt-get update" not in install(root).stdout

    # Raspberry Pi OS's archive added: apt's packages come, PyPI's leave the venv
    write_apt_lists(root, "bookworm", raspberry_pi_os=True)
    later = install(root)
    assert apt_line(later.stdout) == ["python3-lgpio", "python3-rpi.gpio"]
    assert "apt-get update" in later.stdout
    # the program itself is up to date: only PyPI's copies go
    assert "/opt/pegs-companion/src[" not in later.stdout
    assert "+ /opt/pegs-companion/venv/bin/python -m pip uninstall --yes lgpio rpi-lgpio   (fake root" in later.stdout
    assert "changed: from PyPI now: nothing; removed lgpio rpi-lgpio (apt has it)" in later.stdout
    assert "pypi=" not in (root / "opt/pegs-companion/installed-from").read_text()
    assert "Everything was already in place" in install(root).stdout


def test_a_pi5_on_plain_trixie_needs_only_lgpio_from_pypi(tmp_path, install):
    root = make_fake_root(tmp_path / "root", model=PI5, release="trixie", raspberry_pi_os=False)
    proc = install(root)
    assert "instead from PyPI, into the venv: lgpio>=0.2\n" in proc.stdout
    assert pip_line(proc.stdout).split("install --no-cache-dir ")[1].startswith("/opt/pegs-companion/src[pi,pi5] 'lgpio>=0.2'")


def test_not_a_pi_without_extras_skips_the_gpio_and_build_packages(tmp_path, install):
    root = make_fake_root(tmp_path / "root", model=None)
    proc = install(root, "--dry-run")
    assert apt_line(proc.stdout) == ["python3-venv", "avahi-daemon"]
    assert ("skipped: not a Raspberry Pi and no hardware extras: no GPIO libraries, no compiler "
            "(python3-lgpio python3-spidev python3-dev gcc libc6-dev)") in proc.stdout
    assert "installing without the hardware extras" in proc.stderr


def test_not_a_pi_with_extras_says_it_installs_them(tmp_path, install):
    root = make_fake_root(tmp_path / "root", model=None, raspberry_pi_os=False)
    proc = install(root, "--extras", "pi,pi5", "--dry-run")
    assert "without the hardware extras" not in proc.stderr
    assert "installing the extras asked for (pi,pi5)" in proc.stderr
    assert apt_line(proc.stdout) == ["python3-venv", "python3-dev", "gcc", "libc6-dev", "python3-spidev",
                                     "avahi-daemon"]
    assert "instead from PyPI, into the venv: lgpio>=0.2" in proc.stdout
    none = install(make_fake_root(tmp_path / "root2", model=None), "--extras", "", "--dry-run")
    assert "no extras (--extras '')" in none.stdout and "warning" not in none.stderr


def test_the_camera_on_plain_debian_stops_with_one_line(tmp_path, install):
    root = make_fake_root(tmp_path / "root", raspberry_pi_os=False)
    dry = install(root, "--camera", "--dry-run")
    assert "the real run would stop here: --camera needs python3-picamera2, which only Raspberry Pi OS's apt " \
           "archive has" in dry.stderr
    before = snapshot(root)
    proc = install(root, "--camera", ok=False)
    assert proc.returncode == 1
    failed = [l for l in proc.stderr.splitlines() if "FAILED" in l]
    assert failed == ['install.sh: step "apt-packages" FAILED: --camera needs python3-picamera2, which only '
                      "Raspberry Pi OS's apt archive has (not Debian's): use Raspberry Pi OS, or leave out --camera"]
    assert "==> [service-user]" not in proc.stdout and "apt-get install" not in proc.stdout
    assert snapshot(root) == before


def test_a_package_apt_lacks_without_a_pypi_stand_in_stops_the_step(tmp_path, install):
    root = make_fake_root(tmp_path / "root", model=None)
    lists = root / "var/lib/apt/lists"
    for f in lists.iterdir():
        f.write_text(f.read_text().replace("Package: avahi-daemon\n", "Package: something-else\n"))
    proc = install(root, ok=False)
    assert proc.returncode == 1
    assert 'step "apt-packages" FAILED: apt has no avahi-daemon (apt-cache policy: no candidate)' in proc.stderr


def test_without_systemd_running_nothing_is_reloaded_started_or_renamed(tmp_path, install):
    root = make_fake_root(tmp_path / "root", model=PI5, booted=False)     # a chroot, an image being built
    proc = install(root)
    out = proc.stdout
    assert "systemd is not running here (no /run/systemd/system" in out
    for command in ("systemctl daemon-reload", "systemctl restart", "systemctl try-restart", "+ hostname",
                    "udevadm"):
        assert command not in out.replace("skipped: udevadm", "").replace("skipped: systemctl daemon-reload", ""), \
            command
    assert "+ systemctl enable pegs-companion.service" in out                 # works offline
    blocks = step_blocks(out)
    assert "skipped: hostname and the avahi restart: systemd is not running here; the name is set at the first boot" \
        in blocks["hostname"]
    assert "skipped: systemctl daemon-reload: systemd is not running here; it reads the unit at the first boot" \
        in blocks["systemd-unit"]
    assert "skipped: udevadm: udev is not running here; it reads the rule at the first boot" in blocks["pi5-led-udev"]
    assert step_status(blocks["start-service"]) == {"skipped"}
    assert (root / "etc/hostname").read_text() == "pegs\n"
    assert "systemd is not running here, so nothing was started: the service starts at the first boot." in out
    assert "After that boot: systemctl status pegs-companion (is it running?), then open http://pegs.local:8000/" in out
    assert not list((root / "opt/pegs-companion/pending").iterdir())       # nothing left to redo
    again = install(root)
    assert "Everything was already in place: nothing changed." in again.stdout


@pytest.mark.parametrize("mark, step, commands", [
    ("daemon-reload", "systemd-unit", ["systemctl daemon-reload", "systemctl restart pegs-companion.service"]),
    ("hostname", "hostname", ["hostname pegs", "systemctl try-restart avahi-daemon.service"]),
    ("restart", "start-service", ["systemctl restart pegs-companion.service"]),
    ("udev", "pi5-led-udev", ["udevadm control --reload-rules", "udevadm trigger"]),
])
def test_a_command_that_did_not_finish_is_run_again(tmp_path, install, mark, step, commands):
    """A run that wrote a file and died before its command (daemon-reload, hostname, udevadm,
    restart) leaves a mark; the next run runs the command although the file is up to date."""
    root = make_fake_root(tmp_path / "root", model=PI5)
    install(root)
    pending = root / "opt/pegs-companion/pending"
    assert pending.is_dir() and not list(pending.iterdir())
    (pending / mark).write_text("left by a run that died\n")
    proc = install(root)
    assert "Everything was already in place" not in proc.stdout
    assert "changed" in step_status(step_blocks(proc.stdout)[step])
    for command in commands:
        assert f"+ {command}" in proc.stdout, command
    assert not (pending / mark).exists()
    assert "Everything was already in place" in install(root).stdout


def test_the_mark_is_set_before_the_file_is_written(tmp_path, install):
    root = make_fake_root(tmp_path / "root")
    # the unit can't be written (its directory is a file): the step dies between its mark and its command
    (root / "etc/systemd").mkdir(parents=True)
    (root / "etc/systemd/system").write_text("not a directory")
    proc = install(root, ok=False)
    assert proc.returncode != 0 and 'step "systemd-unit" FAILED' in proc.stderr
    assert (root / "opt/pegs-companion/pending/daemon-reload").exists()
    (root / "etc/systemd/system").unlink()
    fixed = install(root)
    assert "+ systemctl daemon-reload" in fixed.stdout
    assert not (root / "opt/pegs-companion/pending/daemon-reload").exists()


def test_the_error_report_names_the_callers_line(fake_root, source_copy):
    (fake_root / "etc/avahi").mkdir(parents=True)
    (fake_root / "etc/avahi/services").write_text("not a directory")
    proc = run_install("--root", fake_root, "--source", source_copy)
    assert proc.returncode != 0
    m = re.search(r"^  command: (.*)\n  at line (\d+) of ", proc.stderr, re.M)
    assert m, proc.stderr
    line = INSTALL.read_text().splitlines()[int(m.group(2)) - 1]
    assert line.strip().startswith('write "$AVAHI_SERVICE"'), line     # the step's line, not write()'s


def test_the_admin_code_is_shown_when_written_and_the_file_named_every_run(fake_root, install):
    first = install(fake_root)
    code = re.search(r'^admin_code = "(\d{8})"$', (fake_root / "etc/pegs-companion/config.toml").read_text(),
                     re.M).group(1)
    assert f"admin code for the settings page: {code} (admin_code in /etc/pegs-companion/config.toml)" \
        in step_blocks(first.stdout)["config-file"]
    again = install(fake_root)
    assert code not in again.stdout
    assert ("Settings: /etc/pegs-companion/config.toml (the settings page http://pegs.local:8000/settings asks "
            "for its admin_code: sudo grep admin_code /etc/pegs-companion/config.toml)") in again.stdout


def test_the_closing_line_is_true(tmp_path, install):
    root = make_fake_root(tmp_path / "root")
    kept = install(root, "--keep-hostname")
    assert "Open http://raspberrypi.local:8000/ on a phone on the same Wi-Fi." in kept.stdout
    assert "pegs.local" not in kept.stdout
    root2 = make_fake_root(tmp_path / "root2")
    idle = install(root2, "--no-start")
    assert "Not started (--no-start): sudo systemctl start pegs-companion, then open http://pegs.local:8000/" \
        in idle.stdout
    assert "Open http" not in idle.stdout
    plain = install(make_fake_root(tmp_path / "root3"))
    assert "Open http://pegs.local:8000/ on a phone on the same Wi-Fi." in plain.stdout
