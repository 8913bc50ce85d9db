"""Child processes measured from outside: a pseudo-terminal, peak RSS, CPU time, servers.

Every whole-process figure comes from here, so the measured path and its
floor are started and read the same way:

- :func:`run_in_terminal` starts a program on a pseudo-terminal of a fixed
  size (Textual draws to it exactly as to a person's terminal), reads what
  it paints and times when given texts first appear; then it quits the app
  (Ctrl+Q) and reaps it with ``os.wait4``, which gives that one child's peak
  RSS and CPU time.
- :class:`Server` runs one of :mod:`benchmarks.serve`'s servers on an
  ephemeral 127.0.0.1 port.
- :func:`run_child` runs a Python child that reports JSON in a file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "PROFILE_ENV",
    "Child",
    "ChildUsage",
    "Server",
    "TerminalRun",
    "bench_env",
    "first_start",
    "free_port",
    "python_env",
    "python_m",
    "run_child",
    "run_in_terminal",
]

#: The checkout holding the ``benchmarks`` package (children import it from here).
CHECKOUT = Path(__file__).resolve().parent.parent


#: Set by ``python -m benchmarks --profile NAME``: where profiled children write their stats.
PROFILE_ENV = "ACCOUNTDESK_BENCH_PROFILE"


def python_m(module: str, *args: str, profile_as: str | None = None) -> list[str]:
    """``python -m module args``; under ``--profile``, run by cProfile when ``profile_as`` names it.

    Only the measured path's processes are given a ``profile_as``: floors are
    not what a profile is for.
    """
    directory = os.environ.get(PROFILE_ENV)
    if directory and profile_as:
        output = tempfile.mkstemp(prefix=f"{profile_as}-", suffix=".prof", dir=directory)
        os.close(output[0])
        return [sys.executable, "-m", "cProfile", "-o", output[1], "-m", module, *args]
    return [sys.executable, "-m", module, *args]


@dataclass(frozen=True, slots=True)
class ChildUsage:
    """What the kernel says a reaped child used."""

    peak_rss_mb: float
    cpu_seconds: float
    status: int

    @classmethod
    def from_wait4(cls, status: int, usage: Any) -> ChildUsage:
        # Linux reports ru_maxrss in KiB.
        return cls(usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, status)


#: Compiled modules of the children, kept between runs (see :func:`python_env`).
PYCACHE = Path(tempfile.gettempdir()) / "accountdesk-bench-pycache"


def python_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """``base`` (the environment) for a Python child that starts as an installed app would.

    An installed app imports compiled modules. This machine sets
    ``PYTHONDONTWRITEBYTECODE``, so the checkout's own modules (an editable
    install) would be compiled from source at every start, and the floor's
    (Textual, compiled at install) would not: unfair to the path. Children
    get a bytecode cache of their own instead (outside the checkout);
    benchmarks that time a start run each program once first, untimed.
    """
    env = dict(os.environ if base is None else base)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    env["PYTHONPATH"] = str(CHECKOUT)
    return env


def first_start(program: str) -> bool:
    """True the first time ``program`` starts with this bytecode cache (then start it untimed).

    A first start compiles every module the program imports; later ones
    only read them back, as an installed app does.
    """
    marker = PYCACHE / f".started-{program}"
    if marker.exists():
        return False
    PYCACHE.mkdir(parents=True, exist_ok=True)
    marker.touch()
    return True


def bench_env(home: Path, **extra: str) -> dict[str, str]:
    """An environment for a child: own config/data/log dirs, no credentials, a known terminal."""
    env = {
        key: value
        for key, value in python_env().items()
        if not key.startswith(("ACCOUNTDESK_", "XDG_", "TEXTUAL"))
    }
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        env[f"XDG_{name}_HOME"] = str(home / name.lower())
    env.update(
        TERM="xterm-256color",
        COLORTERM="truecolor",
        # The machine's keyring is not part of what we measure.
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
    )
    env.update(extra)
    return env


@dataclass
class TerminalRun:
    """One program run on a pseudo-terminal: when each awaited text appeared."""

    #: Seconds from spawn to the first appearance of each step's text.
    seen: list[float] = field(default_factory=list)
    #: Seconds from spawn to when each step's keys were typed (its start, without keys).
    typed: list[float] = field(default_factory=list)
    usage: ChildUsage | None = None
    #: Everything the program wrote (for diagnosis when a text never came).
    output: bytes = b""


def run_in_terminal(
    argv: Sequence[str],
    steps: Sequence[tuple[bytes | None, bytes | re.Pattern[bytes]]],
    *,
    env: dict[str, str],
    size: tuple[int, int] = (100, 30),
    timeout: float = 30.0,
    quit_keys: bytes | None = None,
) -> TerminalRun:
    """Run ``argv`` on a ``size`` (columns, rows) pseudo-terminal and time ``steps``.

    Each step is ``(keys, text)``: type ``keys`` (None: nothing), then wait for
    ``text`` (bytes, or a compiled bytes pattern) to appear in output written
    after the keys. ``seen[i]`` is the
    time from spawn to step i's text, so step i's latency is
    ``seen[i] - seen[i - 1]`` when its keys are typed at once. Raises
    RuntimeError (with the output's tail) when a text does not come in time.
    Then ``quit_keys`` are typed and the program may end by itself; without
    them it is killed at once (what it does after the last step, such as the
    dashboard building its sandbox in the background, is not measured).
    """
    master, slave = pty.openpty()
    columns, rows = size
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    run = TerminalRun()
    started = time.perf_counter()
    # shutil.get_terminal_size (Textual's) reads these before asking the terminal.
    env = {**env, "COLUMNS": str(columns), "LINES": str(rows)}
    process = subprocess.Popen(
        list(argv),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=CHECKOUT,
        start_new_session=True,
        close_fds=True,
    )
    os.close(slave)
    output = bytearray()
    peak: float | None = None
    try:
        for keys, text in steps:
            mark = len(output)
            run.typed.append(time.perf_counter() - started)
            if keys is not None:
                os.write(master, keys)
            deadline = time.monotonic() + timeout
            # Search a little before the mark: a text may straddle two reads.
            back = len(text) if isinstance(text, bytes) else 200
            while not _found(text, output[max(mark - back, 0) :]):
                alive = _read_some(master, output, 0.5) or _running(process)
                if time.monotonic() > deadline or not alive:
                    tail = bytes(output[-600:])
                    missed = RuntimeError(f"{argv[-1]}: {text!r} not seen; output ends {tail!r}")
                    missed.add_note(f"{len(output):,} bytes of output")
                    missed.output = bytes(output)  # type: ignore[attr-defined]
                    raise missed
            run.seen.append(time.perf_counter() - started)
        if quit_keys is not None:
            peak = _own_peak_mb(process.pid)
            os.write(master, quit_keys)
            deadline = time.monotonic() + timeout
            while _running(process) and time.monotonic() < deadline:
                _read_some(master, output, 0.1)  # keep draining: a full pty blocks the app
    finally:
        if _running(process):
            peak = _own_peak_mb(process.pid)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        run.usage = _reap(process, peak)
        os.close(master)
        run.output = bytes(output)
    return run


def _found(text: bytes | re.Pattern[bytes], output: bytearray) -> bool:
    return text in output if isinstance(text, bytes) else text.search(output) is not None


def _read_some(fd: int, into: bytearray, wait: float) -> bool:
    """Read what is there (waiting up to ``wait`` s); False once the other side closed."""
    ready, _, _ = select.select([fd], [], [], wait)
    if not ready:
        return True
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the child closed the terminal
        return False
    into.extend(chunk)
    return bool(chunk)


def _reap(process: subprocess.Popen[Any], peak_mb: float | None = None) -> ChildUsage:
    """Wait for ``process`` with wait4: its own CPU, not all children's.

    ``peak_mb`` (its ``VmHWM``, read while it ran) replaces wait4's peak:
    Linux carries the parent's high-water mark over fork and exec into
    ``ru_maxrss`` (a runner that held a 300 MB body made ``python -c pass``
    report 300 MB).
    """
    try:
        _, status, usage = os.wait4(process.pid, 0)
    except ChildProcessError:  # already reaped: no usage to be had
        return ChildUsage(peak_mb or 0.0, 0.0, process.returncode or 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    reaped = ChildUsage.from_wait4(process.returncode, usage)
    if peak_mb is None:
        return reaped
    return ChildUsage(peak_mb, reaped.cpu_seconds, reaped.status)


def _own_peak_mb(pid: int) -> float | None:
    """``pid``'s own peak RSS since it started its program (``VmHWM``), in MB; None if gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None


def _running(process: subprocess.Popen[Any]) -> bool:
    """True while ``process`` runs; never reaps it (so wait4 still gets its usage)."""
    try:
        exited = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return exited is None


class Child:
    """``python -m module args --result FILE`` started now; :meth:`wait` for its JSON and usage.

    The child's stdout and stderr pass through (progress, tracebacks).
    """

    def __init__(
        self,
        module: str,
        args: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        profile_as: str | None = None,
    ) -> None:
        self.label = f"{module} {' '.join(args)}"
        self._tmp = tempfile.TemporaryDirectory(prefix="bench-")
        self._result = Path(self._tmp.name) / "result.json"
        argv = python_m(module, *args, "--result", str(self._result), profile_as=profile_as)
        self._process = subprocess.Popen(argv, env=python_env(env), cwd=CHECKOUT)

    def wait(self, timeout: float = 600) -> tuple[Any, ChildUsage]:
        deadline = time.monotonic() + timeout
        while _running(self._process):
            if time.monotonic() > deadline:
                self._process.kill()
                break
            time.sleep(0.05)
        usage = _reap(self._process)
        try:
            if usage.status != 0 or not self._result.exists():
                raise RuntimeError(f"{self.label} failed (exit {usage.status})")
            return json.loads(self._result.read_text()), usage
        finally:
            self._tmp.cleanup()


def run_child(
    module: str,
    args: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    profile_as: str | None = None,
    timeout: float = 600,
) -> tuple[Any, ChildUsage]:
    """Run ``python -m module args --result FILE`` to its end: its JSON result and its usage."""
    return Child(module, args, env=env, profile_as=profile_as).wait(timeout)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """A server process on 127.0.0.1 (a context manager), e.g. ``benchmarks.serve``.

    ``argv`` may hold ``{port}``, replaced by a free port. ``url`` is its base
    URL once it accepts connections; ``usage`` its peak RSS and CPU once
    stopped (SIGINT, as Ctrl+C); ``cpu_seconds()`` its CPU time so far.
    Its output is discarded (uvicorn's access log would fill a pipe).
    """

    def __init__(self, *argv: str) -> None:
        self.port = free_port()
        self.argv = [arg.replace("{port}", str(self.port)) for arg in argv]
        self.url = f"http://127.0.0.1:{self.port}"
        self.usage: ChildUsage | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        self._process = subprocess.Popen(
            self.argv,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=CHECKOUT,
            env=python_env(),
        )
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return self
            if not _running(self._process) or time.monotonic() > deadline:
                self.__exit__(None, None, None)
                raise RuntimeError(f"{' '.join(self.argv)}: no server on port {self.port}")
            time.sleep(0.05)

    def cpu_seconds(self) -> float:
        assert self._process is not None
        return process_cpu_seconds(self._process.pid)

    def __exit__(self, *exc_info: object) -> None:
        process = self._process
        if process is None:
            return
        process.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 10
        while _running(process) and time.monotonic() < deadline:
            time.sleep(0.02)
        if _running(process):
            process.kill()
        self.usage = _reap(process)
        self._process = None


def process_cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of a running process (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    ticks = os.sysconf("SC_CLK_TCK")
    # Fields 14 and 15 of stat (utime, stime); index 11 and 12 after the name.
    return (int(fields[11]) + int(fields[12])) / ticks


@contextlib.contextmanager
def scratch_home() -> Iterator[Path]:
    """A throw-away folder for a child's config, data and log dirs."""
    with tempfile.TemporaryDirectory(prefix="accountdesk-bench-") as tmp:
        yield Path(tmp)
