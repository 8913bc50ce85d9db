"""The two-minute soak (``tests/test_soak.py``), started as the run starts.

The soak is a process of its own that mostly waits (a key a second, a drop
every 40 s). Run by its test, it held one of the suite's two workers for two
minutes; started here instead, once, by the process that leads the run
(xdist's controller, or pytest alone), it runs beside the whole suite, and
its test only reads what it wrote. The workers learn where from the
environment they inherit. A run that does not select the test (a path
without it, ``-m "not slow"``) does not start it; a test run without this
(``pytest`` from elsewhere, or a worker started some other way) runs the
soak itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOAK_TEST = ROOT / "tests" / "test_soak.py"
#: Where a started soak writes (its result; ``.rc`` and ``.log`` beside it).
RESULT_VARIABLE = "ACCOUNTDESK_TEST_SOAK_RESULT"

# The child writes its exit status, so a worker can tell a failed soak from
# one still running.
_WRAPPER = (
    "import subprocess, sys; "
    "status = subprocess.run(sys.argv[2:]).returncode; "
    "open(sys.argv[1], 'w').write(str(status))"
)


@dataclass
class Finished:
    """What a soak process left: its exit status, its log's tail, its result."""

    returncode: int
    log: str
    result: dict[str, Any] | None


def plan_arguments() -> list[str]:
    """The suite's soak: drops at 40 s and 80 s; the warm-up covers a whole round of keys."""
    from benchmarks.bench_soak import plan_arguments as arguments_of

    return arguments_of(plan())


def plan() -> Any:
    from benchmarks.soak import SoakPlan

    return SoakPlan(seconds=120, warm_up=45, drop_every=40, first_drop=40, drop_seconds=3)


def command(arguments: list[str], result: Path) -> list[str]:
    return [sys.executable, "-m", "benchmarks.soak", *arguments, "--result", str(result)]


def selected(config: pytest.Config) -> bool:
    """Whether this run will hold the soak test (paths and the ``slow`` marker)."""
    if "not slow" in (config.option.markexpr or ""):
        return False
    paths = [arg.split("::")[0] for arg in config.args] or ["tests"]
    for path in paths:
        where = Path(config.invocation_params.dir, path).resolve()
        if where == SOAK_TEST or where in SOAK_TEST.parents:
            return True
    return False


def start(config: pytest.Config) -> subprocess.Popen[bytes] | None:
    """Start the soak when this process leads a run that selects it (see the module)."""
    if hasattr(config, "workerinput") or RESULT_VARIABLE in os.environ:
        return None
    if not selected(config):
        return None
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"accountdesk-soak-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    result = folder / "soak.json"
    with (folder / "soak.log").open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                _WRAPPER,
                str(folder / "soak.rc"),
                *command(plan_arguments(), result),
            ],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            # A group of its own: stopping the run stops the soak and its
            # sandbox server with it (stop()).
            start_new_session=True,
        )
    os.environ[RESULT_VARIABLE] = str(result)
    return process


def stop(process: subprocess.Popen[bytes] | None) -> None:
    """Stop a soak this run started that is still running (its test never read it)."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def wait_started(timeout: float) -> Finished | None:
    """The started soak's outcome (waiting for it), or None when none was started."""
    where = os.environ.get(RESULT_VARIABLE)
    if not where:
        return None
    result = Path(where)
    status = result.with_name("soak.rc")
    deadline = time.monotonic() + timeout
    while not status.exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"the soak started with the run did not end within {timeout} s")
        time.sleep(1)
    log = result.with_name("soak.log").read_text(errors="replace")[-3000:]
    data = json.loads(result.read_text()) if result.exists() else None
    return Finished(int(status.read_text() or 1), log, data)


def run_here(result: Path, timeout: float) -> Finished:
    """Run the soak in this process's time (no run started it)."""
    done = subprocess.run(
        command(plan_arguments(), result), cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )
    data = json.loads(result.read_text()) if result.exists() else None
    return Finished(done.returncode, done.stderr[-3000:], data)
