"""Jobs: every job started in this app, tracked across runs and polled live.

- :mod:`.tracked_job`: one job as the app knows it, and its record in ``jobs.json``;
- :mod:`.tracker`: every job of a service and API key, read and saved
  through the store, and which ones are due;
- :mod:`.poller`: the live polling, an object with explicit states (live,
  paused, held while a dialog is open): a one-shot timer re-armed after each
  tick, errors backed off, a job "stale" when its answers stop;
- :mod:`.scheduler`: the timers and tasks the poller runs on, as the host
  (the dashboard, or plain asyncio) provides them;
- :mod:`.rows`: what the jobs screen shows of each job, as text;
- :mod:`.learnt_blocks`: the AC-108 blocks the answers taught, as hints the
  service overrules;
- :mod:`.sandbox_instance`: which embedded sandbox a job ran on, and whether
  it still runs.
"""
