"""The session's errors as text someone else can use: a ticket, Markdown, JSON, a curl command.

Every text here comes from :meth:`ErrorRecord.cleaned`: credentials redacted
with the client's redaction, terminal controls made visible with the
client's sanitiser. No token, secret or ``Authorization`` value is ever
written: the curl command reads the token from ``$TOKEN``.

Markdown is for a ticket, so the service's words are escaped: a message
holding ``![x](https://...)`` or ``<img>`` must not become an image a
ticket system fetches. JSON is for tools.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accountdesk import __version__
from accountdesk.contract import ALL_ENDPOINTS, Endpoint, FailureKind, endpoints
from accountdesk.core.errors.log import ErrorRecord

if TYPE_CHECKING:
    from accountdesk.core.desk import Desk

__all__ = [
    "SANDBOX_SERVE_COMMAND",
    "ReportFormat",
    "curl_command",
    "errors_json",
    "errors_markdown",
    "export_errors",
    "service_label",
    "ticket_text",
]

#: Where ``accountdesk sandbox`` listens by default: the URL a curl command
#: for the embedded sandbox (which has none) uses instead.
SANDBOX_SERVE_URL = "http://127.0.0.1:8765"
SANDBOX_SERVE_COMMAND = "accountdesk sandbox --host 127.0.0.1 --port 8765"
EMBEDDED_LABEL = "embedded sandbox (no URL)"


class ReportFormat(StrEnum):
    """An export of the error log; the value is the file's suffix."""

    MARKDOWN = "md"
    JSON = "json"


def service_label(service_url: str) -> str:
    return service_url or EMBEDDED_LABEL


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


# -- a ticket (what "copy" puts on the clipboard) ----------------------------------


def ticket_text(record: ErrorRecord, secrets: Iterable[str | None] = ()) -> str:
    """Plain text for a support ticket, one field a line."""
    r = record.cleaned(secrets)
    lines = [
        f"accountdesk error report: {r.title}",
        f"Time:      {r.time.isoformat()}",
        f"Service:   {service_label(r.service_url)}",
    ]
    if r.method or r.path:
        lines.append(f"Request:   {r.method} {r.path}".rstrip())
    lines += [
        f"Status:    {r.status if r.status is not None else '—'}",
        f"Code:      {r.code or '— (no service code)'}",
        f"Kind:      {r.kind}",
        f"Message:   {r.message}",
        f"Meaning:   {r.meaning}",
        f"Next step: {r.advice}",
    ]
    return "\n".join(lines)


# -- Markdown ----------------------------------------------------------------------

# Everything that could start inline markup, an HTML tag, an entity or a
# table cell; block markup cannot start mid-line and newlines were made
# visible by the sanitiser.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>!~&|])")


def markdown_text(text: str) -> str:
    """``text`` as literal Markdown: every character that could start markup escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _as_it_is(text: str) -> str:
    return text


def _markdown_code(text: str) -> str:
    # A code span shows its content as is; one with a backtick inside is escaped instead.
    return f"`{text}`" if text and "`" not in text else markdown_text(text or "—")


def errors_markdown(
    records: Sequence[ErrorRecord],
    *,
    service_url: str,
    exported_at: datetime,
    secrets: Iterable[str | None] = (),
    shown: Callable[[str], str] | None = None,
) -> str:
    """The records as a Markdown document for a ticket, oldest first.

    ``shown``: each text as it may be shown (presenter mode's fakes), applied
    before the text is escaped; the document then says it is presenting.
    """
    extra = tuple(secrets)
    presenting, t = shown is not None, shown or _as_it_is
    lines = [
        "# accountdesk errors",
        "",
        f"- Service: {_markdown_code(service_label(service_url))}",
        f"- Exported: {_when(exported_at)}",
        f"- Errors: {len(records)}, oldest first",
        f"- accountdesk {__version__}",
        *(["- Presenting: the customer's data is shown as fakes"] if presenting else []),
    ]
    for number, record in enumerate(records, 1):
        r = record.cleaned(extra)
        request = t(f"{r.method} {r.path}".strip())
        lines += [
            "",
            f"## {number}. {markdown_text(t(r.title))} at {r.time:%H:%M:%S} UTC",
            "",
            f"- Time: {_when(r.time)}",
            f"- Request: {_markdown_code(request) if request else 'none sent'}",
            f"- Status: {r.status if r.status is not None else '—'}",
            f"- Code: {markdown_text(r.code or '— (no service code)')}",
            f"- Kind: {markdown_text(r.kind)}",
            f"- Message: {markdown_text(t(r.message))}",
            f"- Meaning: {markdown_text(t(r.meaning))}",
            f"- Next step: {markdown_text(t(r.advice))}",
        ]
    if not records:
        lines += ["", "No errors in this session."]
    return "\n".join(lines) + "\n"


# -- JSON --------------------------------------------------------------------------


def _record_json(r: ErrorRecord, t: Callable[[str], str]) -> dict[str, Any]:
    return {
        "time": r.time.isoformat(),
        "title": t(r.title),
        "severity": r.severity,
        "method": r.method or None,
        "path": t(r.path) or None,
        "status": r.status,
        "code": r.code,
        "failure": t(str(r.failure)) if r.failure is not None else None,
        "kind": r.kind,
        "message": t(r.message),
        "meaning": t(r.meaning),
        "next_step": t(r.next_step),
        "block_lifts_at": r.lifts_at.isoformat() if r.lifts_at is not None else None,
        "service_url": r.service_url or None,
    }


def errors_json(
    records: Sequence[ErrorRecord],
    *,
    service_url: str,
    exported_at: datetime,
    secrets: Iterable[str | None] = (),
    shown: Callable[[str], str] | None = None,
) -> str:
    """The records as one JSON document (``errors`` oldest first); ``shown`` as for Markdown."""
    extra = tuple(secrets)
    presenting, t = shown is not None, shown or _as_it_is
    document = {
        "report": "accountdesk errors",
        "version": 1,
        "accountdesk": __version__,
        "exported_at": exported_at.isoformat(),
        "service_url": service_url or None,
        "embedded_sandbox": not service_url,
        # Presenter mode: the customer's data in it is fakes (core.presenting).
        **({"presenting": True} if presenting else {}),
        "errors": [_record_json(record.cleaned(extra), t) for record in records],
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


# -- curl --------------------------------------------------------------------------


def _path_pattern(endpoint: Endpoint) -> re.Pattern[str]:
    segments = [
        "[^/]+" if part.startswith("{") else re.escape(part) for part in endpoint.path.split("/")
    ]
    return re.compile("/".join(segments) + r"\Z")


_PATTERNS = [(endpoint, _path_pattern(endpoint)) for endpoint in ALL_ENDPOINTS]


def endpoint_of(method: str, path: str) -> Endpoint | None:
    """The contract's endpoint a request went to (None for a path it does not list)."""
    for endpoint, pattern in _PATTERNS:
        if endpoint.method == method and pattern.match(path):
            return endpoint
    return None


#: Failures whose record names no request that went out.
_NOT_SENT = frozenset({FailureKind.REFUSED, FailureKind.INTERNAL})
#: How accountdesk signs in (the sandbox's wire format; the contract shows none).
_SIGN_IN_BODY = '-d "{\\"api_key\\":\\"$API_KEY\\",\\"api_secret\\":\\"$API_SECRET\\"}"'
_JSON_TYPE = "-H 'content-type: application/json'"
_READ_TOKEN = "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"access_token\"])'"


def curl_command(record: ErrorRecord, secrets: Iterable[str | None] = ()) -> str | None:
    """A shell snippet that sends the failed request again; None when none was sent.

    The token is ``$TOKEN`` (a comment says how to get one), the sign-in's
    key and secret ``$API_KEY`` and ``$API_SECRET``, an MFA answer
    ``$MFA_ANSWER``: nothing secret is in the text. On the embedded sandbox
    the command targets ``accountdesk sandbox`` on 127.0.0.1:8765.
    """
    r = record.cleaned(secrets)
    # A request refused before sending names only its endpoint's template.
    if r.failure in _NOT_SENT or not (r.method and r.path):
        return None
    base = r.service_url or SANDBOX_SERVE_URL
    endpoint = endpoint_of(r.method, r.path)
    lines = [f"# {r.title} · {r.method} {r.path} · {r.time.isoformat()}"]
    if not r.service_url:
        lines += [
            "# The embedded sandbox has no URL. Serve a sandbox in another terminal:",
            f"#   {SANDBOX_SERVE_COMMAND}",
            "# (a fresh one: this session's jobs and blocks are not in it).",
        ]
    token_url = shlex.quote(base + endpoints.TOKEN.path)
    if endpoint is endpoints.TOKEN:
        lines.append("# Set API_KEY and API_SECRET to the key and secret to sign in with.")
        lines.append(f"curl -sS -i -X POST {token_url} {_JSON_TYPE} {_SIGN_IN_BODY}")
        return "\n".join(lines) + "\n"
    lines += [
        "# Set TOKEN to an access token of this service first, e.g. (as accountdesk signs in):",
        f"#   TOKEN=$(curl -sS -X POST {token_url} {_JSON_TYPE} {_SIGN_IN_BODY} | {_READ_TOKEN})",
    ]
    command = f"curl -sS -i -X {shlex.quote(r.method)} {shlex.quote(base + r.path)}"
    command += ' -H "Authorization: Bearer $TOKEN"'
    if endpoint is endpoints.MFA_ANSWER:
        command += f' {_JSON_TYPE} -d "{{\\"answer\\":\\"$MFA_ANSWER\\"}}"'
    lines.append(command)
    return "\n".join(lines) + "\n"


# -- files ---------------------------------------------------------------------------


def export_errors(desk: Desk, report: ReportFormat) -> Path | None:
    """Write the session's errors under the data dir (0600); the path, or None (the store said why)."""
    now = desk.now()
    service_url = "" if desk.embedded else desk.service_url
    secrets = (desk.settings.api_secret.get_secret_value(),)
    render = errors_markdown if report is ReportFormat.MARKDOWN else errors_json
    text = render(
        desk.error_log.records,
        service_url=service_url,
        exported_at=now,
        secrets=secrets,
        # Presenting: what leaves the app carries the fakes the screen shows (core.presenting).
        shown=desk.presenter.text if desk.presenting else None,
    )
    # Named by the wall clock: a moved sandbox clock would name it hours off.
    target = desk.dirs.exports_dir / f"errors-{desk.wall_time():%Y%m%d-%H%M%S}.{report.value}"
    return target if desk.store.write_text(target, text) else None
