"""One browser session: one dashboard process, started and ended by the server.

textual-serve's :class:`AppService` speaks the Textual web driver's protocol
with the process; this subclass decides how the process is started and ended:

- started without a shell, from an argument list (no quoting to get wrong);
- on the embedded sandbox, with a data folder of its own (recent lookups,
  tracked jobs): two sessions are two sandboxes, and a job one of them tracks
  means nothing to the other's sandbox (it would poll it, get ``AC-109`` and
  mark it gone in the shared file);
- on the sandbox, without the operator's ``ACCOUNTDESK_API_KEY`` and
  ``ACCOUNTDESK_API_SECRET``: a live credential must not be prefilled in a
  demo page (where anyone watching could press "Show"); never with the
  page's token (``ACCOUNTDESK_SERVE_TOKEN``);
- ended in bounded time: asked to quit, killed when it does not, and waited
  for, so no process outlives its session or the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
import shutil
from asyncio.subprocess import PIPE, Process
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from accountdesk.core.settings.paths import DATA_DIR_VARIABLE
from accountdesk.web.options import TOKEN_VARIABLE

__all__ = ["CREDENTIAL_VARIABLES", "DATA_DIR_VARIABLE", "DashboardSession"]

log = logging.getLogger(__name__)

#: Never handed to a sandbox session (see the module docstring).
CREDENTIAL_VARIABLES = ("ACCOUNTDESK_API_KEY", "ACCOUNTDESK_API_SECRET")
#: How long a dashboard may take to quit before it is killed.
DEFAULT_QUIT_GRACE = 5.0


class DashboardSession(AppService):
    """The dashboard process behind one browser tab."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        data_dir: Path | None = None,
        quit_grace: float = DEFAULT_QUIT_GRACE,
    ) -> None:
        super().__init__(
            shlex.join(argv),
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            # The dashboard delivers no files to the browser; the server has no download route.
            download_manager=DownloadManager(),
        )
        self.argv = list(argv)
        #: The session's own data folder (sandbox), removed when it ends; None: the user's.
        self.data_dir = data_dir
        self.quit_grace = quit_grace
        self._stopping: asyncio.Task[None] | None = None

    @property
    def session_id(self) -> str:
        return str(self.app_service_id)[:8]

    @property
    def pid(self) -> int | None:
        process: Process | None = self._process
        return None if process is None else process.pid

    def environment(self, width: int, height: int) -> dict[str, str]:
        """The process's environment: textual-serve's (web driver, size) and ours."""
        environment: dict[str, str] = self._build_environment(width=width, height=height)
        # The page's token is the server's: a dashboard has no use for it.
        environment.pop(TOKEN_VARIABLE, None)
        if self.data_dir is not None:
            for name in CREDENTIAL_VARIABLES:
                environment.pop(name, None)
            environment[DATA_DIR_VARIABLE] = str(self.data_dir)
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        if self.data_dir is not None:
            self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=PIPE,
            stdout=PIPE,
            stderr=PIPE,
            env=self.environment(width, height),
        )
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        """Relay the dashboard's output to the tab, then close the tab, however it ends."""
        try:
            await super().run()
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # stop() gave up waiting: the tab is closed first (finally)
            # Nobody cancelled this task. textual-serve cancels its stderr
            # reader once the output ends, and awaits it: a reader cancelled
            # before its first step (the dashboard had printed everything
            # and exited before this task first ran, which a loaded machine
            # does) raises CancelledError here. The output has ended.
        except Exception:
            # Output that is not the web driver's protocol (a packet that is
            # not JSON, a line over 64 KiB): this session cannot go on.
            log.exception("session %s: the dashboard's output could not be read", self.session_id)
        finally:
            # The process is gone or unreadable: the browser shows "Session
            # ended" instead of a terminal that no longer answers, and the
            # server's handler, its websocket closed, stops the process.
            await self.remote_close()

    async def stop(self) -> None:
        """End the process (idempotent; every caller waits for the same ending)."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop_once())
        # Shielded: a caller being cancelled (server shutdown) must not leave
        # the process half-stopped.
        await asyncio.shield(self._stopping)

    async def _stop_once(self) -> None:
        # Not through AppService.stop: it waits for the output task without a
        # bound, and that task swallows cancellation, so no timeout around it
        # can fire.
        process: Process | None = self._process
        try:
            if process is not None and process.returncode is None:
                await self.send_meta({"type": "quit"})
                try:
                    await asyncio.wait_for(process.wait(), self.quit_grace)
                except TimeoutError:
                    log.warning(
                        "session %s did not quit in %.1f s: killed",
                        self.session_id,
                        self.quit_grace,
                    )
        finally:
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
            # Its output ends with it; the output task then closes the tab.
            task: asyncio.Task[None] | None = self._task
            if task is not None:
                done, _ = await asyncio.wait({task}, timeout=self.quit_grace)
                if not done:
                    task.cancel()
            if self.data_dir is not None:
                await asyncio.to_thread(shutil.rmtree, self.data_dir, ignore_errors=True)
