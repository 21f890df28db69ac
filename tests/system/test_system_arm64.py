"""systemd/install.sh for real in arm64 Debian roots (issue 26): Bookworm and Trixie.

Where the fake-root tests print every command, here every step runs: apt
(from Debian's mirror, the one this machine's apt uses), the user, the venv,
pip with the pi and pi5 extras on aarch64 (rpi_ws281x compiled), the config,
the unit, `systemctl enable`. The roots are made by mmdebstrap (or debootstrap) and run under
qemu-user-static (binfmt_misc), cached in /var/cache/pegs-arm64 (or
$PEGS_ARM64_CACHE) and rebuilt when missing; each test works on an overlay
over the cached root, so the cache stays as built.

Per release, in one root, in order:
1. plain Debian (no Raspberry Pi OS archive): install.sh --extras pi,pi5
   finishes with lgpio from PyPI, or stops with one clear line saying what to add;
2. with a local apt repository of stand-ins for the Raspberry Pi OS packages
   (tests/system/arm64/standins.sh): the same command installs them from apt
   and finishes;
3. a second run changes nothing (no command, no file);
4. a dry run with --camera finds python3-picamera2 in the stand-ins, and apt
   resolves its dependencies against Debian's;
5. the service's command, as the unit runs it (its user, its directories), serves
   the home page, fetched from outside the root.

The root is not a Pi (no /proc/device-tree/model) and systemd is not PID 1 in
it: the fake-root tests (test_system_install.py, test_system_matrix.py) cover
the Pi models, boot config files and a booted system.

Marker arm64root: `pytest -m 'not arm64root'` leaves it out. It skips, saying
why, without root, mmdebstrap (or debootstrap), or a way to run arm64 binaries.
Timings are printed (pytest -s) and kept in the cache directory's timings.log:
per run of install.sh, its steps, pip's and dpkg's phases and its CPU time.
For speed under emulation, without skipping any step: qemu emulates a
Cortex-A72, the Pi 4's CPU (in-root.sh: qemu's default computes Trixie's
pointer authentication in software); dpkg skips fsync and docs in the test's
layer; the rpi_ws281x wheel pip compiled is kept in CACHE/wheels for later
runs (see WHEELHOUSE).
"""
from __future__ import annotations

import os
import platform
import re
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .system_helpers import REPO, step_blocks, step_status

HERE = Path(__file__).resolve().parent / "arm64"
BUILD_ROOT = HERE / "build-root.sh"
STANDINS = HERE / "standins.sh"
IN_ROOT = HERE / "in-root.sh"
CACHE = Path(os.environ.get("PEGS_ARM64_CACHE", "/var/cache/pegs-arm64"))
RELEASES = ["bookworm", "trixie"]
EXTRAS = "pi,pi5"
# Where the project is seen inside the root (bind mounts, read-only).
SRC, SYSTEMD = "/srv/pegs-source", "/srv/pegs-systemd"
STANDIN_REPO = "/srv/pegs-standins"
# The wheels pip compiled in an earlier run (rpi_ws281x: PyPI has only its sdist), kept beside
# the cached roots and offered to pip (PIP_FIND_LINKS), so a later run installs the same build
# instead of compiling it again under emulation. Filled by the first run on a machine, and
# again whenever PyPI has a newer release (pip takes the newest version, so a new sdist beats
# an old wheel and is compiled); PEGS_ARM64_NO_WHEELHOUSE=1 compiles every time.
WHEELHOUSE = "/srv/pegs-wheels"
USE_WHEELHOUSE = os.environ.get("PEGS_ARM64_NO_WHEELHOUSE") != "1"
NICE = ["nice", "-n", "10"]   # emulation is slow and the machine is shared
DPKG_TEST_CONFIG = """\
# tests/system/test_system_arm64.py: this test's layer only, for speed under emulation
force-unsafe-io
path-exclude=/usr/share/doc/*
path-include=/usr/share/doc/*/copyright
path-include=/usr/share/doc/*/STAND-IN
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/locale/*
"""


def why_not_arm64() -> str | None:
    """Why this machine can't run the test, or None."""
    if sys.platform != "linux":
        return "not Linux"
    if os.geteuid() != 0:
        return "needs root (mmdebstrap, chroot and mounts)"
    missing = [t for t in ("unshare", "chroot", "dpkg-deb", "nice") if shutil.which(t) is None]
    if shutil.which("mmdebstrap") is None and shutil.which("debootstrap") is None:
        missing.append("mmdebstrap")
    if shutil.which("dpkg-scanpackages") is None and shutil.which("apt-ftparchive") is None:
        missing.append("dpkg-scanpackages (dpkg-dev)")
    if missing:
        return f"missing {', '.join(missing)} (apt install mmdebstrap arch-test dpkg-dev)"
    if platform.machine() == "aarch64":
        return None
    binfmt = Path("/proc/sys/fs/binfmt_misc/qemu-aarch64")
    if not Path("/proc/sys/fs/binfmt_misc/status").exists():
        return "binfmt_misc is not mounted (mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc)"
    if not binfmt.exists():
        return "this machine can't run arm64 binaries: no qemu-aarch64 in binfmt_misc (apt install qemu-user-static binfmt-support)"
    text = binfmt.read_text()
    if not text.startswith("enabled"):
        return "qemu-aarch64 is registered in binfmt_misc but disabled"
    flags = re.search(r"^flags: *(\S*)", text, re.M)
    if not flags or "F" not in flags.group(1):
        return "qemu-aarch64 is registered without the F flag, so a chroot can't reach its interpreter (Debian's qemu-user-static sets it)"
    return None


REASON = why_not_arm64()
pytestmark = [
    pytest.mark.arm64root,
    pytest.mark.slow,   # minutes under emulation: .ci/run's slow part, not the README's fast suite
    pytest.mark.timeout(3600),
    pytest.mark.skipif(REASON is not None, reason=f"real arm64 root test skipped: {REASON}"),
]


def say(msg: str) -> None:
    print(f"[arm64] {msg}", file=sys.stderr, flush=True)


class Timings:
    def __init__(self, release: str):
        self.release, self.start, self.rows, self.details = release, time.monotonic(), [], []

    def lap(self, what: str, t0: float) -> None:
        self.rows.append((what, time.monotonic() - t0))
        say(f"{self.release}: {what}: {self.rows[-1][1]:.0f} s")

    def detail(self, what: str, rows: list[tuple[str, float]]) -> None:
        """Where a run's time went: install.sh's steps, then apt's and pip's phases."""
        text = ", ".join(f"{name} {secs:.0f} s" for name, secs in rows if secs >= 0.5)
        self.details.append(f"{what} (load {os.getloadavg()[0]:.1f}): {text}")
        say(f"{self.release}: {self.details[-1]}")

    def save(self) -> None:
        total = time.monotonic() - self.start
        line = (f"{time.strftime('%Y-%m-%d %H:%M:%S')} {self.release} total {total:.0f} s (load {os.getloadavg()[0]:.1f}): "
                + ", ".join(f"{w} {s:.0f} s" for w, s in self.rows))
        say(line)
        with open(CACHE / "timings.log", "a") as fh:
            fh.write(line + "\n")
            fh.writelines(f"    {d}\n" for d in self.details)


def not_built_here(release: str) -> str | None:
    """Why CI can't use `release`'s root, or None. A cold build under emulation takes
    30-60 minutes on a 2-core machine, past CI's budget, so CI (CI=true) uses only roots
    already cached on its machine and names the command that builds one; elsewhere a
    missing root is built (PEGS_ARM64_BUILD=1 makes CI build it too)."""
    if not os.environ.get("CI") or os.environ.get("PEGS_ARM64_BUILD") == "1":
        return None
    built = CACHE / release / "ready"
    if built.is_file() and os.access(CACHE / release / "root" / "usr/bin/python3", os.X_OK):
        return None
    return (f"the arm64 {release} root is not cached on this machine and a cold build takes "
            f"30-60 min, past CI's budget: build it once with "
            f"`tests/system/arm64/build-root.sh {release} {CACHE}` (or set PEGS_ARM64_BUILD=1)")


def cached_root(release: str) -> Path:
    """The cached arm64 root of `release`, built first if it is missing."""
    log = CACHE / f"build-{release}.log"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as fh:
        proc = subprocess.run([*NICE, str(BUILD_ROOT), release, str(CACHE)], stdout=fh, stderr=subprocess.STDOUT,
                              timeout=3000)
    text = log.read_text()
    if proc.returncode != 0:
        pytest.fail(f"building the arm64 {release} root failed (exit {proc.returncode}); {log}:\n{text[-3000:]}")
    say(text.strip().splitlines()[-1])
    return CACHE / release / "root"


class Root:
    """An overlay over a cached root: commands run in it as root (in-root.sh)."""

    def __init__(self, lower: Path, tmp: Path, source: Path, standins: Path, wheels: Path):
        self.lower, self.upper, self.work, self.merged = lower, tmp / "upper", tmp / "work", tmp / "merged"
        self.binds = ["--bind", str(source), SRC, "--bind", str(REPO / "systemd"), SYSTEMD,
                      "--bind", str(standins), STANDIN_REPO, "--bind", str(wheels), WHEELHOUSE]

    def argv(self, *cmd: str) -> list[str]:
        return [*NICE, str(IN_ROOT), str(self.lower), str(self.upper), str(self.work), str(self.merged),
                *self.binds, "--", *cmd]

    def run(self, *cmd: str, timeout: float = 1800, booted: bool = False) -> subprocess.CompletedProcess:
        argv = self.argv(*cmd)
        if booted:
            argv.insert(argv.index("--"), "--booted")
        # a session of its own: on a timeout the emulated processes under it end too (run()
        # would kill only its direct child and leave them running)
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.communicate()
            raise
        return subprocess.CompletedProcess(argv, proc.returncode, out, err)

    def install(self, *args: str, booted: bool = False, times: Timings | None = None,
                what: str = "") -> subprocess.CompletedProcess:
        """install.sh in the root; with `times`, its output is read as it comes, and the time of
        each step (and, inside it, of apt's unpacking, configuring and triggers and of pip's
        phases) is added to `times` under `what`."""
        # PYTHONUNBUFFERED: pip's lines come as they are printed, so their times are right
        env = ["PYTHONUNBUFFERED=1"] + ([f"PIP_FIND_LINKS={WHEELHOUSE}"] if USE_WHEELHOUSE else [])
        argv = self.argv("env", *env, "bash", f"{SYSTEMD}/install.sh", "--source", SRC, *args)
        if booted:
            argv.insert(argv.index("--"), "--booted")
        started = time.time()
        proc, lines = run_timestamped(argv, timeout=1800)
        if times is not None:
            cpu = float(re.search(r"\(cpu (\d+) s\)", lines[-1][1]).group(1))
            times.detail(what, [("cpu", cpu)] + step_times(lines[:-1]) + pip_times(lines)
                         + dpkg_times(self.file("/var/log/dpkg.log"), started))
        return proc

    def file(self, path: str) -> Path:
        """A file of the root as it is now (this test's layer, else the cached root)."""
        up = self.upper / path.lstrip("/")
        return up if up.exists() or up.is_symlink() else self.lower / path.lstrip("/")


# A small C extension, compiled and imported the way pip builds one (the compiler and flags of
# the venv's Python): gcc, libc6-dev and python3-dev from install.sh's apt step suffice.
C_EXTENSION_CHECK = r"""set -e
cd "$(mktemp -d)"
py=/opt/pegs-companion/venv/bin/python
cat >pegs_cc_check.c <<'EOF'
#include <Python.h>
static PyModuleDef m = {PyModuleDef_HEAD_INIT, "pegs_cc_check"};
PyMODINIT_FUNC PyInit_pegs_cc_check(void) { return PyModule_Create(&m); }
EOF
cc=$($py -c 'import sysconfig; print(sysconfig.get_config_var("CC"))')
inc=$($py -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
ext=$($py -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
$cc -shared -fPIC -I"$inc" pegs_cc_check.c -o "pegs_cc_check$ext"
$py -c 'import pegs_cc_check; print(pegs_cc_check)'
"""


def run_timestamped(argv: list[str], timeout: float) -> tuple[subprocess.CompletedProcess, list]:
    """Run argv; its stdout and stderr as run() gives them, and every line with the
    seconds since the start at which it came: [(seconds, line), ...]."""
    t0 = time.monotonic()
    # a session of its own, so a timeout ends the emulated processes under it too
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    out: dict[int, list[bytes]] = {proc.stdout.fileno(): [], proc.stderr.fileno(): []}
    lines: list[tuple[float, str]] = []
    partial = {fd: b"" for fd in out}
    with selectors.DefaultSelector() as sel:
        for f in (proc.stdout, proc.stderr):
            sel.register(f, selectors.EVENT_READ)
        while sel.get_map():
            left = t0 + timeout - time.monotonic()
            if left <= 0:
                os.killpg(proc.pid, 9)
                proc.wait()
                raise subprocess.TimeoutExpired(argv, timeout)
            for key, _ in sel.select(timeout=min(left, 5)):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                out[key.fd].append(chunk)
                now = time.monotonic() - t0
                text = partial[key.fd] + chunk
                *done, partial[key.fd] = text.split(b"\n")
                lines += [(now, d.decode("utf-8", "replace")) for d in done]
    # wait4: the CPU time of the command and everything under it (qemu's emulation), a
    # figure that depends far less on the machine's load than the elapsed time
    _, status, usage = os.wait4(proc.pid, 0)
    rc = proc.returncode = os.waitstatus_to_exitcode(status)
    lines.append((time.monotonic() - t0, f"(cpu {usage.ru_utime + usage.ru_stime:.0f} s)"))
    stdout = b"".join(out[proc.stdout.fileno()]).decode("utf-8", "replace")
    stderr = b"".join(out[proc.stderr.fileno()]).decode("utf-8", "replace")
    proc.stdout.close()
    proc.stderr.close()
    return subprocess.CompletedProcess(argv, rc, stdout, stderr), lines


def step_times(lines: list) -> list[tuple[str, float]]:
    """Seconds per install.sh step (from its "==> [step]" line to the next one)."""
    marks = [(t, m.group(1)) for t, line in lines if (m := re.match(r"==> \[([a-z0-9-]+)\]", line))]
    end = lines[-1][0] if lines else 0.0
    return [(step, (marks[i + 1][0] if i + 1 < len(marks) else end) - t) for i, (t, step) in enumerate(marks)]


def pip_times(lines: list) -> list[tuple[str, float]]:
    """pip's phases in the run's output: resolving and downloading (from its first
    "Collecting" to "Building wheel"/"Installing collected packages"), building wheels
    (sdists compiled here), installing (to "Successfully installed")."""
    def first(pattern: str, after: float = -1.0) -> float | None:
        return next((t for t, line in lines if t >= after and re.search(pattern, line)), None)
    start = first(r"^\s*Collecting |^Processing /")
    if start is None:
        return []
    build = first(r"Building wheels? for |Building wheel for ", start)
    install = first(r"^Installing collected packages", start)
    done = first(r"^Successfully installed", start)
    out = []
    if install is not None:
        out.append(("pip resolve+download", (build if build is not None else install) - start))
        if build is not None:
            out.append(("pip build wheels", install - build))
        if done is not None:
            out.append(("pip install", done - install))
    return out


def dpkg_times(log: Path, since: float) -> list[tuple[str, float]]:
    """dpkg's time in this run, from its log: unpacking, configuring (the packages'
    maintainer scripts), triggers (1-second stamps, summed per action)."""
    if not log.exists():
        return []
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(since - 1))
    sums: dict[str, float] = {}
    phase, t_prev = None, None
    for line in log.read_text(errors="replace").splitlines():
        if line[:19] < stamp:
            continue
        parts = line.split()
        t = time.mktime(time.strptime(line[:19], "%Y-%m-%d %H:%M:%S"))
        if phase is not None and t_prev is not None:
            sums[phase] = sums.get(phase, 0.0) + t - t_prev
        verb = parts[2] if len(parts) > 2 else ""
        if verb in ("install", "upgrade"):
            phase = "dpkg unpack"
        elif verb == "configure":
            phase = "dpkg configure"
        elif verb == "trigproc":
            phase = "dpkg triggers"
        elif verb == "startup":
            phase = None
        t_prev = t
    return list(sums.items())


def snapshot(top: Path) -> dict:
    out = {}
    for dirpath, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            rel = str(p.relative_to(top))
            out[rel] = (st.st_mode, st.st_uid, st.st_size, st.st_mtime_ns,
                        os.readlink(p) if p.is_symlink() else None)
    return out


def report(proc: subprocess.CompletedProcess) -> str:
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout[-6000:]}\n--- stderr\n{proc.stderr[-4000:]}"


def free_port() -> int:
    """A port that is free now and stays free until the service starts minutes later: below
    Linux's ephemeral range (32768-60999), which the kernel hands to apt's and pip's outgoing
    connections meanwhile (a port from bind(0) was taken by one in CI)."""
    import random
    low = 32768
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    for port in random.Random().sample(range(20000, min(low, 32768)), 200):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


def unit_command(root: Root) -> str:
    """A shell command that starts ExecStart as pegs-companion.service would: its user and
    group, its state, configuration and runtime directories with their modes, its working
    directory, umask and environment (read from the installed unit and drop-ins)."""
    from .test_system_unit import parse_unit
    unit = root.file("/etc/systemd/system/pegs-companion.service")
    dropins = sorted((root.upper / "etc/systemd/system/pegs-companion.service.d").glob("*.conf"))
    svc = parse_unit(unit.read_text(), *(d.read_text() for d in dropins))["Service"]
    user, group = svc["User"][-1], svc["Group"][-1]
    steps = []
    for kind, base, owner in (("StateDirectory", "/var/lib", f"{user}:{group}"),
                              ("RuntimeDirectory", "/run", f"{user}:{group}"),
                              ("ConfigurationDirectory", "/etc", None)):
        for name in svc.get(kind, []):
            mode = svc.get(f"{kind}Mode", ["0755"])[-1]
            path = f"{base}/{name}"
            steps.append(f"mkdir -p {path} && chmod {mode} {path}")
            if owner:   # systemd gives state and runtime directories to the service's user
                steps.append(f"chown {owner} {path}")
    env = " ".join(svc.get("Environment", []))
    steps += [f"cd {svc['WorkingDirectory'][-1]}", f"umask {svc.get('UMask', ['0022'])[-1]}",
              f"exec setpriv --reuid={user} --regid={group} --init-groups "
              f"env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin QEMU_CPU=$QEMU_CPU {env} "
              f"{svc['ExecStart'][-1]}"]
    return " && ".join(steps)


def fetch(url: str, deadline: float) -> tuple[int, str]:
    last = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=20) as resp:
                return resp.status, resp.read().decode("utf-8", "replace")
        except OSError as exc:
            last = exc
            time.sleep(2)
    raise AssertionError(f"{url} did not answer: {last}")


@pytest.fixture(scope="module")
def scenarios(request, tmp_path_factory, source_copy):
    """Each selected release's scenario, all started at once on threads: emulation is one
    busy process per root, so two roots side by side take little more than one."""
    wanted = [item.callspec.params["release"] for item in request.session.items
              if getattr(item, "originalname", "") == "test_install_in_a_real_arm64_root"
              and not_built_here(item.callspec.params["release"]) is None]
    # Its own work directory, not pytest's: other pytest runs on the machine rotate
    # /tmp/pytest-of-USER, which could delete the roots' layers during these long runs.
    work = Path(tempfile.mkdtemp(prefix="pegs-arm64-", dir="/var/tmp"))
    source = work / "source"
    shutil.copytree(source_copy, source)
    pool = ThreadPoolExecutor(max_workers=max(1, len(wanted)))
    futures = {release: pool.submit(scenario, release, work / release, source) for release in wanted}
    yield futures
    pool.shutdown(wait=True)
    shutil.rmtree(work, ignore_errors=True)


@pytest.mark.parametrize("release", RELEASES)
def test_install_in_a_real_arm64_root(release, scenarios):
    why = not_built_here(release)
    if why is not None:
        pytest.skip(f"real arm64 root test skipped: {why}")
    scenarios[release].result()


def scenario(release: str, tmp_path: Path, source_copy: Path) -> None:
    times = Timings(release)
    t0 = time.monotonic()
    lower = cached_root(release)
    times.lap("cached root ready", t0)
    tmp_path.mkdir(parents=True)
    standins = tmp_path / "standins"
    subprocess.run([str(STANDINS), release, str(standins)], check=True, capture_output=True, timeout=120)
    wheels = CACHE / "wheels" / release
    wheels.mkdir(parents=True, exist_ok=True)
    root = Root(lower, tmp_path, source_copy, standins, wheels)
    # dpkg in this test's layer only (the cached root stays as built): no fsync after every
    # file (the layer is thrown away; mmdebstrap builds roots the same way), and no
    # documentation, manual pages or translations, which nothing here reads. apt still
    # unpacks, configures and triggers every package: this cut unpacking by a fifth
    # (measured side by side in two Bookworm roots at load 17: 135 s against 170 s).
    speed = root.upper / "etc/dpkg/dpkg.cfg.d/pegs-test-speed"
    speed.parent.mkdir(parents=True)
    speed.write_text(DPKG_TEST_CONFIG)
    port = free_port()
    args = ["--extras", EXTRAS, "--port", str(port)]
    host_name = socket.gethostname()

    # 1. plain Debian: no python3-lgpio from apt; lgpio from PyPI, or one clear line
    t0 = time.monotonic()
    plain = root.install(*args, times=times, what="run 1, plain Debian")
    times.lap("run 1, plain Debian", t0)
    out = plain.stdout
    assert "==> [apt-packages]" in out, report(plain)
    assert "not in this system's apt sources (Raspberry Pi OS's archive has them): python3-lgpio" in out, report(plain)
    assert "instead from PyPI, into the venv: lgpio>=0.2" in out, report(plain)
    assert "apt-get install -y --no-install-recommends" in out and "python3-lgpio" not in \
        [w for line in out.splitlines() if "apt-get install" in line for w in line.split()], report(plain)
    if plain.returncode == 0:
        say(f"{release}: plain Debian finished with lgpio from PyPI")
        assert "pypi=lgpio>=0.2" in root.file("/opt/pegs-companion/installed-from").read_text()
        check = root.run("/opt/pegs-companion/venv/bin/python", "-c",
                         "import importlib.metadata as m; print(m.version('lgpio'))")
        assert check.returncode == 0 and check.stdout.strip().startswith("0.2"), report(check)
    else:
        failed = [line for line in plain.stderr.splitlines() if "FAILED" in line]
        assert len(failed) == 1, report(plain)
        line = failed[0]
        say(f"{release}: plain Debian stops: {line}")
        assert 'step "python-package" FAILED: python3-lgpio' in line and "Raspberry Pi OS's apt archive" in line, \
            report(plain)
        assert "==> [pegs-command]" not in out

    # 2. the Raspberry Pi OS packages from apt (the stand-ins' repository)
    add = root.run("sh", "-c", f"echo 'deb [trusted=yes] file:{STANDIN_REPO} ./' "
                               ">/etc/apt/sources.list.d/raspberrypi-os-standins.list")
    assert add.returncode == 0, report(add)
    t0 = time.monotonic()
    first = root.install(*args, times=times, what="run 2, with the stand-ins")
    times.lap("run 2, with the stand-ins", t0)
    assert first.returncode == 0, report(first)
    out = first.stdout
    blocks = step_blocks(out)
    assert "changed" in step_status(blocks["apt-packages"]), report(first)
    status = root.run("dpkg-query", "-W", "-f", "${Package} ${Version} ${Status}\\n",
                      "python3-lgpio", "liblgpio1", "python3-spidev", "python3-venv", "gcc", "libc6-dev",
                      "avahi-daemon", "python3-dev")
    assert status.returncode == 0, report(status)
    for pkg in ("python3-lgpio 0.2.2-1~rpt1", "liblgpio1 0.2.2-1~rpt1"):
        assert f"{pkg} install ok installed" in status.stdout, status.stdout
    stamp = root.file("/opt/pegs-companion/installed-from").read_text()
    assert stamp.startswith(f"extras={EXTRAS} source=") and "pypi=" not in stamp, stamp
    pip = root.run("/opt/pegs-companion/venv/bin/python", "-m", "pip", "list", "--format=freeze")
    assert pip.returncode == 0, report(pip)
    names = {line.split("==")[0].lower() for line in pip.stdout.split()}
    for name in ("pegs-companion", "rpi_ws281x", "adafruit-blinka-raspberry-pi5-neopixel",
                 "adafruit-circuitpython-neopixel", "gpiozero", "smbus2", "flask", "waitress"):
        assert name.lower().replace("_", "-") in {n.replace("_", "-") for n in names}, (name, pip.stdout)
    assert "lgpio" not in names, "PyPI's lgpio left in the venv after apt's python3-lgpio came"
    ws281x = re.search(r"^rpi[_-]ws281x==(\S+)$", pip.stdout, re.M | re.I).group(1)
    compiled = [run for run in (plain, first) if re.search(
        r"(Building wheel|Running setup\.py install) for rpi[_-]ws281x", run.stdout, re.I)]
    say(f"{release}: rpi_ws281x {ws281x}: "
        + ("compiled by pip in this root" if compiled else f"from the wheelhouse ({wheels})"))
    t0 = time.monotonic()
    if not compiled:
        # the wheel was built here before; that the toolchain install.sh installed still
        # builds a C extension for this Python is checked on a small one
        assert list(wheels.glob(f"rpi_ws281x-{ws281x}-*.whl")), list(wheels.iterdir())
        cc = root.run("sh", "-c", C_EXTENSION_CHECK)
        assert cc.returncode == 0 and "<module 'pegs_cc_check'" in cc.stdout, report(cc)
        times.lap("a C extension built with the installed gcc and python3-dev", t0)
    elif USE_WHEELHOUSE and not list(wheels.glob(f"rpi_ws281x-{ws281x}-*.whl")):
        # once per release and version: pip builds the wheel it compiled, kept for later runs
        build = root.run("/opt/pegs-companion/venv/bin/python", "-m", "pip", "wheel", "--no-deps",
                         "--no-cache-dir", "--use-pep517", "-w", "/var/tmp/pegs-wheel", f"rpi_ws281x=={ws281x}")
        assert build.returncode == 0, report(build)
        for whl in (root.upper / "var/tmp/pegs-wheel").glob("rpi_ws281x-*.whl"):
            shutil.copy2(whl, wheels / whl.name)
        times.lap("wheelhouse filled (rpi_ws281x compiled once more, for later runs)", t0)
    # enabled offline; nothing started; this machine's name untouched
    link = root.upper / "etc/systemd/system/multi-user.target.wants/pegs-companion.service"
    assert link.is_symlink(), report(first)
    assert root.file("/etc/hostname").read_text() == "pegs\n"
    assert socket.gethostname() == host_name
    for both in (plain, first):
        assert "+ systemctl daemon-reload" not in both.stdout and "+ hostname" not in both.stdout
    # the run that got through the unit and hostname steps: plain Debian stops before them
    # where PyPI has no lgpio for the root's Python (Trixie's 3.13)
    through = plain if plain.returncode == 0 else first
    assert "skipped: systemctl daemon-reload: systemd is not running here" in through.stdout
    assert "skipped: hostname and the avahi restart: systemd is not running here" in through.stdout
    assert "systemd is not running here, so nothing was started: the service starts at the first boot." in out
    assert "After that boot: systemctl status pegs-companion" in out
    conf = root.file("/etc/pegs-companion/config.toml").read_text()
    code = re.search(r'^admin_code = "(\d{8})"$', conf, re.M).group(1)
    assert f"admin code for the settings page: {code}" in through.stdout   # printed when written
    # and where it is at the end of every run: with the code in the run that wrote it
    written = (f"Settings page: http://pegs.local:{port}/settings - admin code {code} "
               "(admin_code in /etc/pegs-companion/config.toml)")
    if through is first:
        assert written in out, report(first)
    else:
        assert written in plain.stdout, report(plain)
        assert "Settings: /etc/pegs-companion/config.toml" in out, report(first)

    # 3. again: nothing to do, nothing changed
    before = snapshot(root.upper)
    t0 = time.monotonic()
    second = root.install(*args, times=times, what="run 3, nothing to do")
    times.lap("run 3, nothing to do", t0)
    assert second.returncode == 0, report(second)
    blocks = step_blocks(second.stdout)
    for step, lines in blocks.items():
        assert step_status(lines) <= {"ok", "skipped"} and step_status(lines), (step, lines)
    assert "Everything was already in place: nothing changed." in second.stdout
    assert "Settings: /etc/pegs-companion/config.toml" in second.stdout, report(second)
    assert "    + " not in second.stdout, second.stdout   # no command run
    after = snapshot(root.upper)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    assert changed == [], changed

    # 4. the camera's packages: apt finds picamera2 among the stand-ins and resolves it against Debian
    t0 = time.monotonic()
    dry = root.install(*args, "--camera", "--dry-run")
    assert dry.returncode == 0, report(dry)
    assert re.search(r"would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "
                     r"python3-picamera2 python3-opencv python3-numpy$", dry.stdout, re.M), report(dry)
    sim = root.run("apt-get", "install", "-s", "--no-install-recommends", "python3-picamera2")
    assert sim.returncode == 0, report(sim)
    for pulled in ("python3-picamera2", "python3-libcamera", "python3-simplejpeg", "python3-numpy", "python3-pil"):
        assert f"Inst {pulled} " in sim.stdout, (pulled, sim.stdout[-3000:])
    times.lap("dry run with --camera, apt -s", t0)

    # 5. the service's command as the unit runs it; the home page from outside the root
    t0 = time.monotonic()
    svc = subprocess.Popen(root.argv("sh", "-c", unit_command(root)), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        status_code, page = fetch(f"http://127.0.0.1:{port}/", time.monotonic() + 300)
        assert status_code == 200 and "Pegs and Jokers" in page, page[:500]
        times.lap("service up, home page fetched", t0)
        passwd = root.file("/etc/passwd").read_text()
        pegs_uid = int(re.search(r"^pegs:x:(\d+):", passwd, re.M).group(1))
        data = root.upper / "var/lib/pegs-companion"
        assert data.stat().st_uid == pegs_uid and oct(data.stat().st_mode & 0o777) == "0o700"
        owned = [p for p in data.iterdir()]
        assert owned and all(p.stat().st_uid == pegs_uid for p in owned), owned
    finally:
        os.killpg(svc.pid, 15)
        try:
            log, _ = svc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(svc.pid, 9)
            log, _ = svc.communicate()
        say(f"{release}: service output: {log.strip()[-800:]}")

    # 6. as if booted (systemd as PID 1), with a stand-in systemctl whose daemon-reload fails once:
    # the report names that command and the step's line; the next run does the reload again
    t0 = time.monotonic()
    shim = root.upper / "usr/local/sbin/systemctl"
    shim.parent.mkdir(parents=True, exist_ok=True)
    shim.write_text('#!/bin/sh\necho "systemctl $*" >>/var/log/systemctl-stand-in.log\n'
                    'if [ "$1" = daemon-reload ] && [ -e /etc/fail-daemon-reload ]; then\n'
                    '    echo "Failed to reload daemon: stand-in failure" >&2; exit 1\nfi\n'
                    'exit 0\n')   # no systemd runs in the root to restart anything
    shim.chmod(0o755)
    (root.upper / "etc/fail-daemon-reload").write_text("")
    unit = root.upper / "etc/systemd/system/pegs-companion.service"
    unit.write_text(unit.read_text() + "# changed by hand\n")     # install.sh puts its own copy back
    failing = root.install(*args, booted=True)
    assert failing.returncode == 1, report(failing)
    m = re.search(r'step "systemd-unit" FAILED \(exit status 1\)\n  command: (.*)\n  at line (\d+) of ',
                  failing.stderr)
    assert m and m.group(1) == "systemctl daemon-reload", report(failing)
    line = (REPO / "systemd/install.sh").read_text().splitlines()[int(m.group(2)) - 1]
    assert line.strip() == "run systemctl daemon-reload", line
    assert (root.upper / "opt/pegs-companion/pending/daemon-reload").exists()
    (root.upper / "etc/fail-daemon-reload").unlink()
    again = root.install(*args, booted=True)
    assert again.returncode == 0, report(again)
    assert "systemctl daemon-reload did not finish last time: again" in again.stdout, report(again)
    calls = (root.upper / "var/log/systemctl-stand-in.log").read_text().splitlines()
    assert calls.count("systemctl daemon-reload") == 2 and "systemctl restart pegs-companion.service" in calls, calls
    assert not (root.upper / "opt/pegs-companion/pending/daemon-reload").exists()
    assert "Open http://pegs.local:" in again.stdout
    times.lap("booted: a failed daemon-reload, then redone", t0)
    times.save()
