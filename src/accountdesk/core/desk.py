"""The desk: the whole state of one accountdesk session, free of Textual.

A :class:`Desk` owns the settings, the store, the connection and the signed-in
client, the error log, the recent lookups and tracked jobs of the current
service, and the job poller. The Textual app owns one desk, hands it a
scheduler (timers and workers) and a :class:`DeskListener`, and turns what
the listener hears into messages and toasts. Tests drive a desk without any
screen.

One class, read top to bottom: where the session is (its clock), signing in
and out, what is kept per service and API key, jobs (the tracker and the
poller, built on first use: nothing of them is needed before sign-in),
transactions (:class:`~accountdesk.core.transactions.reads.TransactionReads`),
a sandbox's control endpoints and time (any sandbox can have its clock
moved: the desk keeps how far it is from ours in ``sandbox_offset``, so
countdowns and ages agree with the times the service sends; with a control
token, the trainer's training room), what is remembered for the next run,
and the errors.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accountdesk.core.connection import ClientFactory, ServiceConnection
from accountdesk.core.jobs.sandbox_instance import SandboxLocks
from accountdesk.core.jobs.scheduler import AsyncioScheduler, Scheduler
from accountdesk.core.listener import DeskListener, NullListener
from accountdesk.core.service_identity import ServiceIdentity
from accountdesk.core.settings.paths import AppDirs
from accountdesk.core.settings.start import StartSettings
from accountdesk.core.settings.values import SANDBOX_SERVICE_KEY
from accountdesk.core.store import Store
from accountdesk.core.transactions.reads import TransactionKey, TransactionReads

if TYPE_CHECKING:
    import httpx
    from pydantic import SecretStr

    from accountdesk.client import (
        Account,
        AccountDataClient,
        AccountDataError,
        Identity,
        Job,
        SandboxControl,
        ScenarioUser,
        TrainingRoom,
    )
    from accountdesk.contract import JobKind
    from accountdesk.core.errors.log import ErrorLog, ErrorRecord, InternalError
    from accountdesk.core.jobs.poller import JobPoller
    from accountdesk.core.jobs.tracker import JobTracker, TrackedJob
    from accountdesk.core.presenting import Presenter
    from accountdesk.core.recents import RecentLookups
    from accountdesk.core.settings.model import Settings
    from accountdesk.core.settings.secrets import Remembered, SecretKeeper
    from accountdesk.core.store import StoreProblem
    from accountdesk.core.transactions.data import TransactionData
    from accountdesk.core.transactions.read import TransactionRead


__all__ = ["Desk", "DeskListener", "NullListener"]

log = logging.getLogger(__name__)


def _system_clock() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Desk:
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
        present_locked: bool = False,
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
        #: A failed connection is in the error log since the service last answered.
        self._outage_recorded = False
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
        #: Transaction reads running, and the whole lists read this session.
        self.transactions = TransactionReads()
        first = self.start_settings or self._settings
        # Presenter mode (core.presenting): built on first use, the first frame does without.
        self._presenter: Presenter | None = None
        self._present_at_start = (bool(first is not None and first.present), present_locked)

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
        self.transactions.forget()
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
        # The user ids the session shows from the start (recent lookups, tracked jobs).
        if self.presenter.active:
            self.presenter.learn_user_ids(
                [*self.recents.user_ids, *(job.user_id for job in self.tracker.jobs)]
            )
        self.listener.jobs_changed()

    async def sign_out(self) -> None:
        """Stop polling, save the jobs, close the client."""
        self.stop_polling()
        client, self._client = self._client, None
        self.signed_in_as = ""
        self.sandbox_offset = dt.timedelta(0)
        self.transactions.forget()
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

    # -- presenting ------------------------------------------------------------------

    @property
    def presenter(self) -> Presenter:
        """Presenter mode: what is drawn shows fakes of the customer's data (core.presenting)."""
        if self._presenter is None:
            # Here, not at start-up: its patterns and tables are 3 ms of the first frame.
            from accountdesk.core.presenting import Presenter

            active, locked = self._present_at_start
            self._presenter = Presenter(active=active, locked=locked)
        return self._presenter

    @property
    def presenting(self) -> bool:
        """Whether the session presents now (read without building the presenter)."""
        if self._presenter is None:
            return any(self._present_at_start)
        return self._presenter.active

    def set_presenting(self, on: bool) -> None:
        """Turn presenter mode on or off (never off when it is locked: web mode's ``--present``)."""
        presenter = self.presenter
        if presenter.locked and not on:
            return
        presenter.active = on
        if on and self.signed_in:
            presenter.learn_user_ids(
                [*self.recents.user_ids, *(job.user_id for job in self.tracker.jobs)]
            )
        self.listener.presenting_changed()

    async def learn_customer(self, user_id: str) -> None:
        """While presenting: learn what ``user_id``'s records say is the customer's, once.

        The account and identity records not read yet this session are read (a
        refusal only means less is learnt), so a name is found wherever it is
        drawn: in the account's name, a transaction's description, an error.
        Nothing is read when not presenting: every record read is learnt from
        anyway (:meth:`Presenter.learn`).
        """
        presenter = self.presenter
        presenter.learn_user_ids([user_id])
        missing = presenter.missing(user_id)
        if not presenter.active or not missing or not self.signed_in:
            return
        from accountdesk.client import AccountDataError

        client = self.client
        for record in missing:
            try:
                if record == "account":
                    self.learn_from_read(user_id, account=await client.get_account(user_id))
                else:
                    self.learn_from_read(user_id, identity=await client.get_identity(user_id))
            except AccountDataError:
                presenter.tried(user_id, record)
        self.listener.presenting_changed()

    def learn_from_read(
        self, user_id: str, *, account: Account | None = None, identity: Identity | None = None
    ) -> None:
        """A record of ``user_id`` read: what it says is the customer's is learnt (presenting or not).

        Learnt as drawn (the sanitised fields), so what is matched is what the screen shows.
        """
        self.presenter.learn(
            user_id,
            account=account.model_dump(mode="json") if account is not None else None,
            identity=identity.model_dump(mode="json") if identity is not None else None,
        )

    # -- jobs ----------------------------------------------------------------------

    @property
    def tracker(self) -> JobTracker:
        """This service's and key's tracked jobs (read from their file on first use)."""
        from accountdesk.core.jobs.tracker import JobTracker

        if self._tracker is None or self._tracker_key != self.state_key:
            signed_in = bool(self.signed_in_as)
            tracker = JobTracker(
                self.store,
                self._state_file("jobs.json"),
                self.service_key,
                api_key=self.signed_in_as,
                earlier_path=self.dirs.jobs_file if signed_in else None,
                # The embedded sandbox is new every run: a job of an earlier
                # run is gone for every key, not someone else's.
                unknown_means_gone=self.embedded,
                sandboxes=self.connection.sandbox_locks if self.embedded else None,
            )
            tracker.load()
            tracker.clock_offset = self.sandbox_offset.total_seconds()
            self._tracker = tracker
            self._tracker_key = self.state_key
            self._poller = None
        return self._tracker

    @property
    def poller(self) -> JobPoller:
        """The poller of :attr:`tracker`'s jobs (built on first use)."""
        from accountdesk.core.jobs.poller import JobPoller

        tracker = self.tracker
        if self._poller is None or self._poller.tracker is not tracker:
            self._poller = JobPoller(
                tracker, self.scheduler, self, self.now, interval=self.poll_interval
            )
        return self._poller

    def stop_polling(self) -> None:
        if self._poller is not None:
            self._poller.stop()
        if self._tracker is not None and self._tracker.unsaved:
            self._tracker.save()

    def track_job(self, job: Job, user_id: str, *, offer_mfa: bool = True) -> TrackedJob:
        """Start tracking a job this app just started; it is polled from now on.

        ``offer_mfa=False``: the caller has already said the job waits for MFA
        (a recording's jobs), so no dialog or toast offers it.
        """
        self.presenter.learn_user_ids([user_id])
        tracked = self.tracker.track(job, user_id, self.now())
        self.tracker.save()
        self.listener.jobs_changed()
        if tracked.needs_mfa:
            if offer_mfa:
                self.listener.mfa_needed(tracked)
            else:
                tracked.mfa_offered = True
        return tracked

    def track_left_jobs(self, user_id: str, left: Sequence[tuple[JobKind, Job]]) -> None:
        """Track the jobs a recording started and left unfinished (it says so itself: no MFA offer).

        The contract has no call that ends a job: until each ends, the user's
        next job of its kind is refused (AC-112), so they are on the jobs screen.
        """
        for _kind, job in left:
            self.track_job(job, user_id, offer_mfa=False)

    def update_job(self, job: Job, user_id: str) -> TrackedJob | None:
        """A state of a tracked job learnt elsewhere (the MFA dialog): record it, say if it ended."""
        from accountdesk.core.jobs.tracker import job_key
        from accountdesk.core.notices import job_ended

        tracked = self.tracker.get(job_key(user_id, job.job_id))
        if tracked is None:
            return None
        was_pollable = tracked.is_pollable
        self.tracker.record_poll(tracked, job, self.now())
        self.tracker.save()
        if was_pollable and tracked.is_terminal:
            self.listener.notice(job_ended(tracked))
        self.listener.jobs_changed()
        return tracked

    def finished_job_keys(self) -> list[str]:
        """The jobs "Clear done" forgets: finished or gone, not given up on."""
        return [job.key for job in self.tracker.jobs if not job.is_pollable and not job.given_up]

    def clear_finished_jobs(self, among: Collection[str] | None = None) -> int:
        """Forget the finished (or gone) jobs of this service, only those ``among`` if given."""
        tracker = self.tracker
        done = [key for key in self.finished_job_keys() if among is None or key in among]
        cleared = tracker.forget(done)
        if cleared:
            tracker.save()
            self.listener.jobs_changed()
        return cleared

    def unfinished_jobs(self) -> int:
        """Jobs still being polled (what quitting or signing out would leave behind)."""
        return len(self.tracker.pollable()) if self.signed_in else 0

    # -- what the poller says (its PollerListener) --------------------------------

    def jobs_changed(self) -> None:
        self.listener.jobs_changed()

    def job_finished(self, tracked: TrackedJob) -> None:
        from accountdesk.core.notices import job_ended

        self.listener.notice(job_ended(tracked))

    def job_needs_mfa(self, tracked: TrackedJob) -> None:
        self.listener.mfa_needed(tracked)

    def job_given_up(self, tracked: TrackedJob) -> None:
        from accountdesk.core.notices import job_given_up

        minutes = int(self.poller.give_up_after.total_seconds() // 60)
        self.listener.notice(job_given_up(tracked, minutes))

    def poll_failed(self, tracked: TrackedJob, error: AccountDataError) -> None:
        from accountdesk.client import TransportError

        if isinstance(error, TransportError) and self._outage_recorded:
            # Said already: the header shows "no answer since" until an answer
            # comes, and the job's row is marked stale. One error an outage,
            # not one a job polled (70 in a 5-second drop with 100 jobs, each
            # a line of the error log and kept for the session).
            log.debug("poll of %s failed while the service gives no answer", tracked.key)
            return
        self.listener.error_recorded(self.record_error(error))

    # -- transactions ---------------------------------------------------------------

    def cached_transactions(self, user_id: str) -> TransactionData | None:
        """A user's transactions read whole earlier this session, or None."""
        return self.transactions.kept(TransactionKey(*self.state_key, user_id))

    def start_transaction_read(self, user_id: str) -> TransactionRead:
        """Start reading ``user_id``'s transactions afresh, now, in a task of this loop.

        Called on the key press that opens the transactions screen, so the
        request is out while the screen is mounted; the screen follows the
        read (:meth:`TransactionRead.updates`) and cancels it if it goes
        away first. The whole list, once read, is kept for the session
        (unless the desk signed out or in again meanwhile). A read still
        running is cancelled on sign-out.
        """
        client = self.client
        key = TransactionKey(*self.state_key, user_id)
        return self.transactions.start(client, key, still_ours=lambda: self._client is client)

    async def prepare_transactions(self, user_id: str | None = None) -> None:
        """Have the embedded sandbox build ``user_id``'s answer now, if not read yet.

        Called when a user's account is shown: in embedded mode the first
        ``x`` then finds the answer built (nothing for a live service).
        Without ``user_id`` (the lookup screen shown): every large generated
        answer, so that user_bulk's build is over before its account opens.
        """
        if user_id is None or self.cached_transactions(user_id) is None:
            await self.connection.prepare_transactions(user_id)

    async def stream_transactions(self, user_id: str) -> AsyncIterator[TransactionData]:
        """A user's transactions read afresh, batch by batch as they arrive.

        Yields the same :class:`~.transactions.data.TransactionData` after each
        batch is appended (in a worker thread: its index, once built, grows
        with it); ``complete`` turns True, and the data is cached, once the
        read ends. Raises the client's errors; what was yielded before stays
        good (and is not cached: it is not the whole list). Stopping early
        stops the read.
        """
        read = self.start_transaction_read(user_id)
        try:
            async with contextlib.aclosing(read.updates()) as updates:
                async for data in updates:
                    yield data
        finally:
            read.cancel()

    # -- the sandbox: its control endpoints and its time ----------------------------

    @property
    def sandbox_control(self) -> SandboxControl:
        """The sandbox's control endpoints, through the signed-in client."""
        token = self.settings.sandbox_control_token
        return self.client.sandbox_control(token)

    async def _read_scenarios(self) -> list[ScenarioUser]:
        from accountdesk.client import AccountDataError

        try:
            catalogue = await self.sandbox_control.scenarios()
        except AccountDataError as error:  # a demo convenience: never a failure of sign-in
            log.warning("scenario catalogue unavailable: %s", error.title)
            return []
        return list(catalogue.users) if catalogue is not None else []

    async def scenarios(self) -> list[ScenarioUser]:
        """The sandbox's scenario users, as read at sign-in ([] on a live service)."""
        return list(self._scenarios)

    async def advance_sandbox_clock(self, seconds: float) -> dt.datetime:
        """Move the sandbox's clock forward (expire an MFA session, lift a block, finish jobs)."""
        return self._follow_sandbox(await self.sandbox_control.advance_clock(seconds))

    async def sandbox_clock(self) -> dt.datetime:
        """The sandbox's clock now (the app's clock follows it)."""
        return self._follow_sandbox(await self.sandbox_control.clock())

    async def serve_scenarios(self, files: Sequence[Path]) -> None:
        """Make the embedded sandbox serve the shipped users and the packs ``files`` (a tour's).

        A fresh sandbox when the packs differ from the ones served (sign out
        first: its tokens go with it); nothing on a live service or when
        they are the same.
        """
        wanted = [str(file) for file in files] or None
        connection = self.connection
        if connection.sandbox_options.get("scenarios") != wanted:
            await connection.rebuild_sandbox(scenarios=wanted)

    async def reset_sandbox(self) -> None:
        """Forget the sandbox's jobs, MFA sessions and blocks (and rewind its clock).

        On a training room's shared world (not a trainee's key), every
        trainee's world goes with it.
        """
        await self.sandbox_control.reset()
        await self.sandbox_clock()  # the sandbox rewound its clock: so does the app's

    # -- the trainer's room ------------------------------------------------------

    @property
    def is_trainer(self) -> bool:
        """A control token is set: the sandbox panel asks for the training room."""
        return self.settings.sandbox_control_token is not None

    async def training_room(self) -> TrainingRoom:
        """Every trainee the sandbox has seen (``AC-903`` without the right control token)."""
        return await self.sandbox_control.trainees()

    async def reset_trainee(self, name: str) -> None:
        """Forget one trainee's jobs, MFA sessions and blocks and rewind their clock."""
        await self.sandbox_control.reset_trainee(name)
        await self._learn_sandbox_time()  # the trainer may be signed in as that trainee

    async def advance_trainee_clock(self, name: str, seconds: float) -> dt.datetime:
        """Move one trainee's clock forward; their new time."""
        moved = await self.sandbox_control.advance_trainee_clock(name, seconds)
        await self._learn_sandbox_time()
        return moved

    async def reset_room(self) -> None:
        """Reset the shared world and every trainee's (the trainer's "start again")."""
        await self.sandbox_control.reset_room()
        await self._learn_sandbox_time()  # the trainer's own world rewound too

    def _follow_sandbox(self, sandbox_now: dt.datetime) -> dt.datetime:
        self.sandbox_offset = sandbox_now - self.clock()
        self._clock_moved()
        return sandbox_now

    async def _learn_sandbox_time(self) -> None:
        from accountdesk.client import AccountDataError

        try:
            await self.sandbox_clock()
        except AccountDataError as error:  # an older sandbox: keep our own time
            log.warning("sandbox clock unavailable: %s", error.title)

    # -- remembered for the next run ------------------------------------------------

    def remember_theme(self, theme: str) -> bool:
        """Keep the theme picked in the command palette for the next run (config file)."""
        from accountdesk.core.settings.file import remember_theme

        return remember_theme(self.store, self.dirs.config_path, theme)

    def remember_credentials(
        self, api_key: str, api_secret: SecretStr | None, *, secret_in_file: bool = False
    ) -> Remembered | None:
        """Keep the key (and a live service's URL) in the config file, the secret in the keyring.

        The secret goes into the config file only when no keyring exists and
        ``secret_in_file`` says the user chose it. None when the config file
        could not be written (the store told the user why).
        """
        from accountdesk.core.settings.file import remember_credentials

        remembered, in_file = self.secrets.keep(
            self.service_key,
            api_key,
            api_secret,
            file_allowed=secret_in_file,
            config_path=self.dirs.config_path,
        )
        written = remember_credentials(
            self.store,
            self.dirs.config_path,
            api_key=api_key,
            base_url=None if self.embedded else self.connection.base_url,
            profile=self.settings.profile,
            api_secret=in_file,
        )
        return remembered if written else None

    def remembered_secret(self, api_key: str) -> SecretStr | None:
        """A secret the keyring holds for this service and key (blocking: call from a thread)."""
        return self.secrets.load(self.service_key, api_key)

    # -- reachability -------------------------------------------------------------

    def _answered(self) -> None:
        self._outage_recorded = False
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
            self._outage_recorded = True
        if isinstance(error, InternalError):
            log.error("internal error in %s:\n%s", error.operation or "the app", error.log_text())
        else:
            log.warning("%s: %s %s -> %s", record.title, record.method, record.path, record.message)
        return record

    def _store_problem(self, problem: StoreProblem) -> None:
        from accountdesk.core.notices import store_problem

        self.listener.notice(store_problem(problem))
