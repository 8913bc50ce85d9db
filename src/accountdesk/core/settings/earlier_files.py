"""The files of earlier versions: one jobs list and one lookup list per service, any key.

Before state was kept per service and API key (:meth:`~.paths.AppDirs.state_dir`),
``jobs.json`` and ``recent.json`` in the data folder held one list per
service, whoever signed in. Those entries belong to some key of that service,
but which one is not written anywhere. They are kept, never dropped silently,
and handed over:

- **jobs** are shown apart ("from an earlier version") and go to the first
  key whose poll of the job succeeds: the service itself says whose it is.
  Polling is the one way to ask, and a read of a job changes nothing on the
  service; a key that gets no answer for it leaves it for the others. On the
  embedded sandbox, which is new on every run, no key can ever poll a job of
  an earlier run: the first key's poll takes it, as gone.
- **recent lookups** go to the first key that signs in on that service: a
  user id is a shortcut for typing, not state anyone can lose, and after an
  upgrade the first to sign in is nearly always the person who looked them up.

Taking an entry removes it from the earlier file (after it was written to the
key's own file: a crash between leaves it in both, never in neither). The
rest of the file, other services included, is left as it was.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from accountdesk.core.jobs.tracked_job import empty_jobs, job_key, jobs_document, service_records
from accountdesk.core.store import CorruptFile, Store

__all__ = [
    "earlier_job_records",
    "earlier_lookups",
    "forget_earlier_jobs",
    "forget_earlier_lookups",
]


def earlier_job_records(store: Store, path: Path, service_key: str) -> list[Any]:
    """The records an earlier version kept for ``service_key`` (newest first, as written)."""
    return service_records(store.read_json(path, jobs_document, empty_jobs), service_key)


def forget_earlier_jobs(store: Store, path: Path, service_key: str, keys: Collection[str]) -> bool:
    """Take the jobs ``keys`` out of the earlier file (taken by a key, or cleared); False on failure."""
    if not path.exists():
        return True

    def without(document: dict[str, Any]) -> dict[str, Any]:
        kept = [
            record
            for record in service_records(document, service_key)
            if not (
                isinstance(record, dict)
                and job_key(str(record.get("user_id")), str(record.get("job_id"))) in keys
            )
        ]
        services = dict(document["services"])
        if kept:
            services[service_key] = kept
        else:
            services.pop(service_key, None)
        return {**document, "services": services}

    return store.update_json(path, without, jobs_document, empty_jobs) is not None


def _lookups_document(data: Any) -> dict[str, Any]:
    if isinstance(data, list):  # the first format of all: one list, the sandbox's
        data = {"sandbox": data}
    if not isinstance(data, dict):
        raise CorruptFile("not a recent-lookups document")
    return data


def earlier_lookups(store: Store, path: Path, service_key: str) -> list[str]:
    """The user ids an earlier version kept for ``service_key`` (most recent first)."""
    if not path.exists():
        return []
    ids = store.read_json(path, _lookups_document, dict[str, Any]).get(service_key)
    return [item for item in ids if isinstance(item, str)] if isinstance(ids, list) else []


def forget_earlier_lookups(store: Store, path: Path, service_key: str) -> bool:
    """Take ``service_key``'s list out of the earlier file (it went to a key); False on failure."""

    def without(document: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in document.items() if key != service_key}

    return store.update_json(path, without, _lookups_document, dict) is not None
