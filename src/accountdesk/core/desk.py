"""The desk: the whole state of one accountdesk session, free of Textual.

A :class:`Desk` owns the settings, the store, the connection and the signed-in
client, the error log, the recent lookups and tracked jobs of the current
service, and the job poller. The Textual app owns one desk, hands it a
scheduler (timers and workers) and a :class:`DeskListener`, and turns what
the listener hears into messages and toasts. Tests drive a desk without any
screen.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accountdesk.core.connection import ClientFactory, ServiceConnection
from accountdesk.core.desk_jobs import DeskJobs
from accountdesk.core.jobs.sandbox_instance import SandboxLocks
from accountdesk.core.jobs.scheduler import AsyncioScheduler, Scheduler
from accountdesk.core.listener import DeskListener, NullListener
from accountdesk.core.remembering import Remembering
from accountdesk.core.sandbox_session import SandboxSession
from accountdesk.core.service_identity import ServiceIdentity
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.settings.start import StartSettings
from accountdesk.core.settings.values import SANDBOX_SERVICE_KEY
from accountdesk.core.store import Store
from accountdesk.core.transactions.cache import TransactionCache
from accountdesk.core.transactions.reads import TransactionReads

if TYPE_CHECKING:
    import httpx
    from pydantic import SecretStr

    from accountdesk.client import (
        AccountDataClient,
        AccountDataError,
        ScenarioUser,
    )
    from accountdesk.core.errors.log import ErrorLog, ErrorRecord, InternalError
    from accountdesk.core.jobs.poller import JobPoller
    from accountdesk.core.jobs.tracker import JobTracker, TrackedJob
    from accountdesk.core.recents import RecentLookups
    from accountdesk.core.settings.model import Settings
    from accountdesk.core.settings.secrets import SecretKeeper
    from accountdesk.core.store import StoreProblem


__all__ = ["Desk", "DeskListener", "NullListener"]

log = logging.getLogger(__name__)


def _system_clock() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Desk(SandboxSession, Remembering, TransactionReads, DeskJobs):
    """One session's state (see the module docstring).

    ``transport`` and ``client_factory`` let tests and the embedded sandbox
    plug in; ``clock`` is the app clock (aware UTC), frozen in tests.
    """

    def __init__(
        self,
        settings: Settings | StartSettings,
        dirs: AppDirs,
        *,
        clock: Callable[[], dt.datetime] | None = None,
        wall_clock: Callable[[], dt.datetime] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        client_factory: ClientFactory | None = None,
        poll_interval: float = 1.0,
        sandbox_options: dict[str, Any] | None = None,
        secret_backend: Any | None = None,
        client_options: dict[str, Any] | None = None,
    ) -> None:
        # Started from StartSettings (the command, on the embedded sandbox):
        # validated on first use of ``settings``; the app asks right after the first frame.
        self.start_settings = settings if isinstance(settings, StartSettings) else None
        self._settings = None if isinstance(settings, StartSettings) else settings
        self.dirs = dirs
        self.clock = clock or _system_clock
        #: The time for names a person reads in a folder (exports, copies):
        #: the app's clock, which a demo stops (it passes the real one here).
        self.wall_clock = wall_clock or self.clock
        #: How far a sandbox's clock is ahead of ours (zero on a live service):
        #: ``now`` adds it, so countdowns and ages agree with the service's times.
        self.sandbox_offset = dt.timedelta(0)
        self.store = Store(on_problem=self._store_problem, now=self.clock)
        self.identity = ServiceIdentity(self.store, dirs.data_dir)
        self.connection = ServiceConnection(
            base_url=None if self._settings is None else self._settings.base_url,
            transport=transport,
            client_factory=client_factory,
            client_options={**self._client_options(), **(client_options or {})},
            sandbox_options=sandbox_options,
            watch=(self._answered, self._no_answer),
            sandbox_locks=SandboxLocks(dirs.data_dir / "sandboxes"),
        )
        #: Since when the service has given no answer (None: it answers).
        self.unreachable_since: dt.datetime | None = None
        # Built on first use (like the tracker, poller and recents): none is
        # needed before the first frame, and their modules cost it ~10 ms.
        self._error_log: ErrorLog | None = None
        self._secrets: SecretKeeper | None = None
        self._secret_backend = secret_backend
        self.listener: DeskListener = NullListener()
        self.scheduler: Scheduler = AsyncioScheduler()
        self.poll_interval = poll_interval
        self.signed_in_as = ""
        self._client: AccountDataClient | None = None
        self._recents: RecentLookups | None = None
        self._recents_key: tuple[str, str] = ("", "")
        self._tracker: JobTracker | None = None
        self._tracker_key: tuple[str, str] = ("", "")
        self._poller: JobPoller | None = None
        #: The sandbox's scenario users, learnt at sign-in ([] on a live service).
        self._scenarios: list[ScenarioUser] = []
        #: Transactions read this session (per service and user), until sign-out.
        self.transactions = TransactionCache()
        self._reads = set()

    def attach(self, listener: DeskListener, scheduler: Scheduler) -> None:
        """The UI's listener and scheduler (call before signing in)."""
        self.listener = listener
        self.scheduler = scheduler

    def _client_options(self) -> dict[str, Any]:
        """What the settings decide about the client (tests may add deadlines)."""
        # The cap is the app's setting (max_response_mb): a million-row
        # user_bulk is ~140 MB, over the client's 64 MiB default.
        return {"max_response_bytes": (self.start_settings or self.settings).max_response_bytes}

    @property
    def settings(self) -> Settings:
        """The validated settings (validated now if the desk started from StartSettings).

        Raises :class:`~accountdesk.core.settings.values.ConfigError` when they
        cannot be used: nothing is sent before this has passed.
        """
        if self._settings is None:
            assert self.start_settings is not None
            self._settings = self.start_settings.validate()
        return self._settings

    @property
    def error_log(self) -> ErrorLog:
        """The session's errors, newest last (built on first use)."""
        if self._error_log is None:
            from accountdesk.core.errors.log import ErrorLog

            self._error_log = ErrorLog()
        return self._error_log

    @property
    def secrets(self) -> SecretKeeper:
        """Where remembered secrets are kept: the system keyring (built on first use)."""
        if self._secrets is None:
            from accountdesk.core.settings.secrets import SecretKeeper

            self._secrets = SecretKeeper(self._secret_backend)
        return self._secrets

    # -- where we are ----------------------------------------------------------

    def now(self) -> dt.datetime:
        """The service's time: our clock, plus the sandbox's offset on a sandbox."""
        return self.clock() + self.sandbox_offset

    def wall_time(self) -> dt.datetime:
        """The time to name files by: never a sandbox's moved clock."""
        return self.wall_clock()

    def job_now(self, job: TrackedJob, at: dt.datetime | None = None) -> dt.datetime:
        """Now on the clock ``job`` started on: its age and last poll are read on it.

        The clock this session follows for a job seen since sign-in; for any
        other (an earlier run's, a gone one's) the clock it was last seen on.
        ``at``: a moment of our own clock (``clock()``) to read it at instead
        of now, so every row of a screen can read its age at the same moment.
        """
        ours = self.clock() if at is None else at
        if job.live_clock or job.clock_offset is None:
            return ours + self.sandbox_offset
        return ours + dt.timedelta(seconds=job.clock_offset)

    def _clock_moved(self) -> None:
        """The sandbox's clock moved (or was learnt): the jobs on it move with it."""
        tracker = self._tracker
        if not self.signed_in_as or tracker is None or self._tracker_key != self.state_key:
            return  # signing in: the tracker to come starts on the new offset
        if tracker.follow_clock(self.sandbox_offset.total_seconds()):
            tracker.save()
            self.listener.jobs_changed()

    @property
    def embedded(self) -> bool:
        """True on the embedded sandbox (in-process, no network)."""
        return self.connection.embedded

    @property
    def is_sandbox(self) -> bool:
        """The service is a sandbox: the embedded one, or one that answered ``/_sandbox/scenarios``."""
        return self.embedded or bool(self._scenarios)

    @property
    def service_url(self) -> str:
        return self.connection.url

    @property
    def service_key(self) -> str:
        """What per-service files key on: ``"sandbox"`` or the live base URL."""
        return SANDBOX_SERVICE_KEY if self.embedded else self.connection.url

    def use_base_url(self, base_url: str) -> None:
        """Point a live desk at another (normalised) base URL, typed on the sign-in screen."""
        if self.embedded or base_url == self.connection.base_url:
            return
        self.connection = self.connection.with_base_url(base_url)
        self.identity.forget()
        self._scenarios = []
        self.transactions.clear()
        self.cancel_transaction_reads()
        self._recents = None
        self._tracker = None
        self._poller = None

    # -- the session -------------------------------------------------------------

    @property
    def client(self) -> AccountDataClient:
        """The signed-in client (RuntimeError before sign-in)."""
        if self._client is None:
            raise RuntimeError("not signed in")
        return self._client

    @property
    def signed_in(self) -> bool:
        return self._client is not None

    async def sign_in(self, api_key: str, api_secret: SecretStr) -> None:
        """Sign in (raises the client's errors), then load and start polling this service's jobs."""
        from accountdesk.client import register_secret

        # What was typed is hidden in the log even if the service refuses it
        # (the client's own registry goes with the client).
        register_secret(api_secret)
        client = await self.connection.sign_in(api_key, api_secret)
        self.stop_polling()  # signed in again without signing out: the last key's jobs saved
        # Reloaded for this key (another app may have saved since), and not
        # before the sandbox's time is learnt: its jobs start on that clock.
        self._tracker = None
        self._client = client
        # A sandbox over HTTP (a trainer's `accountdesk sandbox`) says so here;
        # a live service answers 404 and stays live.
        self._scenarios = await self._read_scenarios()
        if self.is_sandbox:  # a trainer's sandbox may have been moved ahead already
            await self._learn_sandbox_time()
        self.signed_in_as = api_key
        log.info("signed in with key %s on %s", api_key, self.service_key)
        self.poller.start(client)
        self.listener.jobs_changed()

    async def sign_out(self) -> None:
        """Stop polling, save the jobs, close the client."""
        self.stop_polling()
        client, self._client = self._client, None
        self.signed_in_as = ""
        self.sandbox_offset = dt.timedelta(0)
        self.transactions.clear()
        self.cancel_transaction_reads()
        if client is not None:
            await client.aclose()
            log.info("signed out")

    async def close(self) -> None:
        """End the session: sign out, stop the embedded sandbox."""
        await self.sign_out()
        await self.connection.aclose()

    # -- per-service state ---------------------------------------------------------

    # Kept per service AND API key (core.paths.AppDirs.state_dir): people who
    # share a machine account never see, or poll, each other's jobs. Before
    # sign-in there is no key: nothing is read or written.

    @property
    def state_key(self) -> tuple[str, str]:
        """What the session's files are kept under: (service, API key signed in with)."""
        return (self.service_key, self.signed_in_as)

    def _state_file(self, name: str) -> Path | None:
        if not self.signed_in_as:
            return None
        return self.dirs.state_dir(self.service_key, self.signed_in_as) / name

    @property
    def recents(self) -> RecentLookups:
        from accountdesk.core.recents import RecentLookups

        if self._recents is None or self._recents_key != self.state_key:
            signed_in = bool(self.signed_in_as)
            self._recents = RecentLookups(
                self.store,
                self._state_file("recent.json"),
                self.service_key,
                earlier_path=self.dirs.recent_file if signed_in else None,
            )
            self._recents_key = self.state_key
        return self._recents

    # -- reachability -------------------------------------------------------------

    def _answered(self) -> None:
        if self.unreachable_since is not None:
            self.unreachable_since = None
            log.info("the service answers again")
            self.listener.reachability_changed()

    def _no_answer(self) -> None:
        if self.unreachable_since is None:
            self.unreachable_since = self.now()
            log.warning("the service does not answer")
            self.listener.reachability_changed()

    # -- errors ------------------------------------------------------------------

    def record_error(self, error: AccountDataError | InternalError) -> ErrorRecord:
        """Add ``error`` to the session's log (and the log file); the record the UI shows."""
        from accountdesk.core.errors.log import ErrorRecord, InternalError

        service_url = "" if self.embedded else self.service_url
        record = ErrorRecord.from_error(error, self.now(), service_url=service_url)
        self.error_log.append(record)
        from accountdesk.client import TransportError

        if isinstance(error, TransportError):  # a whole-request time-out too
            self._no_answer()
        if isinstance(error, InternalError):
            log.error("internal error in %s:\n%s", error.operation or "the app", error.log_text())
        else:
            log.warning("%s: %s %s -> %s", record.title, record.method, record.path, record.message)
        return record

    def _store_problem(self, problem: StoreProblem) -> None:
        from accountdesk.core.notices import store_problem

        self.listener.notice(store_problem(problem))
