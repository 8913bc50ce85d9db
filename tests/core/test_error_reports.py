"""Error records with the contract's guidance, and what is made of them: ticket, Markdown, JSON, curl.

No screen: records are built from the client's errors, reports are strings.
Nothing written may hold a token or a secret; everything from the service is
sanitised; the Markdown cannot turn the service's words into markup.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shlex
import stat
from pathlib import Path

import pytest
from pydantic import SecretStr

from accountdesk.client import (
    ApiError,
    InvalidIdentifierError,
    JobWatchTimeout,
    MalformedResponseError,
    TransportError,
    register_secret,
)
from accountdesk.client.models import Job
from accountdesk.contract import ERRORS, FAILURE_GUIDANCE, SANDBOX_CODES, FailureKind, endpoints
from accountdesk.core.desk import Desk
from accountdesk.core.errors.log import ErrorRecord, InternalError, lift_time
from accountdesk.core.errors.reports import (
    SANDBOX_SERVE_COMMAND,
    ReportFormat,
    curl_command,
    errors_json,
    errors_markdown,
    export_errors,
    ticket_text,
)
from accountdesk.core.settings.model import Settings
from accountdesk.core.settings.paths import AppDirs

NOW = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC)
LIVE = "https://api.bank.example"
TOKEN = "tok-3f9a8c7e6d5b4a39"
SECRET = "live-secret-7c1e"


@pytest.fixture(autouse=True)
def _registered_secrets() -> None:
    # What a signed-in client does: its secret and each token are registered for redaction.
    register_secret(TOKEN)
    register_secret(SECRET)


def api_error(code: str, endpoint: endpoints.Endpoint, path: str, **kw: object) -> ApiError:
    spec = ERRORS[code]
    return ApiError(
        spec.status_for(endpoint),
        code,
        spec.message_for(endpoint, user_id="user_x", job_id="job_1"),
        method=endpoint.method,
        path=path,
        **kw,  # type: ignore[arg-type]
    )


def record_of(error: object, service_url: str = LIVE) -> ErrorRecord:
    return ErrorRecord.from_error(error, NOW, service_url=service_url)  # type: ignore[arg-type]


# -- guidance on records ------------------------------------------------------------------


def test_a_coded_answer_carries_its_catalogue_guidance() -> None:
    record = record_of(api_error("AC-104", endpoints.ACCOUNT, "/accounts/user_x"))
    spec = ERRORS["AC-104"]
    assert (record.meaning, record.next_step, record.failure) == (
        spec.meaning,
        spec.next_step,
        None,
    )
    assert (record.method, record.path, record.status, record.service_url) == (
        "GET",
        "/accounts/user_x",
        400,
        LIVE,
    )
    assert record.toast_text == f"{spec.message_for(endpoints.ACCOUNT)}\nNext: {spec.next_step}"


def test_ac106_and_ac113_records_differ_though_the_message_is_one() -> None:
    paused = record_of(api_error("AC-106", endpoints.BALANCE, "/accounts/u/balance"))
    mismatch = record_of(api_error("AC-113", endpoints.IDENTITY_READ, "/accounts/u/identity"))
    assert paused.message == mismatch.message
    assert paused.meaning != mismatch.meaning and "/balance" in paused.meaning


def test_an_uncatalogued_code_and_a_sandbox_code_are_guided_too() -> None:
    unknown = record_of(ApiError(400, "AC-999", "Something new", method="GET", path="/x"))
    assert unknown.meaning == FAILURE_GUIDANCE[FailureKind.UNKNOWN_CODE].meaning
    sandbox = record_of(ApiError(404, "AC-904", "No such endpoint", method="GET", path="/nope"))
    assert sandbox.next_step == SANDBOX_CODES["AC-904"].next_step


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (TransportError("connect", "refused", method="GET", path="/a"), FailureKind.CONNECT),
        (TransportError("timeout", "slow", method="GET", path="/a"), FailureKind.TIMEOUT),
        (TransportError("network", "reset", method="GET", path="/a"), FailureKind.NETWORK),
        (MalformedResponseError(502, "<html>", problem="not JSON"), FailureKind.MALFORMED),
        (InvalidIdentifierError("user_id", "blank", method="GET"), FailureKind.REFUSED),
        (JobWatchTimeout(Job(job_id="j"), 5.0, method="GET", path="/j"), FailureKind.STILL_RUNNING),
        (InternalError(RuntimeError("boom")), FailureKind.INTERNAL),
    ],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
def test_failures_without_a_code_are_named_by_kind(error: object, kind: FailureKind) -> None:
    record = record_of(error)
    assert record.code is None and not record.title.startswith("AC-")
    assert record.failure is kind
    assert (record.meaning, record.next_step) == (
        FAILURE_GUIDANCE[kind].meaning,
        FAILURE_GUIDANCE[kind].next_step,
    )


def test_ac108_with_retry_after_says_when_the_block_lifts() -> None:
    error = api_error("AC-108", endpoints.REFRESH, "/accounts/u/refresh", retry_after=900.0)
    record = record_of(error)
    assert record.lifts_at == NOW + dt.timedelta(seconds=900)
    lifts = "The block lifts at 09:45:00 UTC (in 15 min)."
    assert record.advice == f"{lifts} {ERRORS['AC-108'].next_step}"
    assert record.toast_text.splitlines() == [error.message, f"Next: {record.advice}"]
    soon = record_of(api_error("AC-108", endpoints.REFRESH, "/a", retry_after=42.5))
    assert soon.advice.startswith("The block lifts at 09:30:42 UTC (in 43 s).")


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (900.3, "in 15 min"),  # a 15-minute block read a moment after the service set it
        (899.6, "in 15 min"),
        (14 * 60 + 31, "in 15 min"),
        (14 * 60 + 29, "in 14 min"),
        (61, "in 1 min"),
        (59.2, "in 60 s"),
        (0.4, "in 1 s"),
    ],
)
def test_when_a_block_lifts_reads_in_whole_minutes_to_the_nearest(
    seconds: float, said: str
) -> None:
    """A 15-minute block, with our clock a few ms behind the service's, is not "in 16 min"."""
    assert lift_time(NOW + dt.timedelta(seconds=seconds), NOW).endswith(f"({said})")


def test_ac108_without_retry_after_only_says_it_lifts_by_itself() -> None:
    record = record_of(api_error("AC-108", endpoints.REFRESH, "/accounts/u/refresh"))
    assert record.lifts_at is None and record.advice == ERRORS["AC-108"].next_step
    assert "lifts by itself" in record.meaning


# -- redaction and sanitising -------------------------------------------------------------


def hostile_record(service_url: str = LIVE) -> ErrorRecord:
    """A service that echoes a token, a secret, terminal controls and Markdown in its message."""
    message = (
        f"Bad Authorization: Bearer {TOKEN} \x1b[31mred\x1b[0m ![x](https://evil.example/t.png) "
        f"<img src=x> secret={SECRET} api_secret={SECRET}"
    )
    error = ApiError(400, "AC-204", message, method="GET", path="/accounts/user_x")
    return record_of(error, service_url)


def assert_clean(text: str) -> None:
    assert TOKEN not in text and SECRET not in text
    assert "\x1b" not in text


def test_ticket_text_has_the_guidance_and_no_secret() -> None:
    record = hostile_record()
    text = ticket_text(record)
    assert_clean(text)
    assert f"Meaning:   {record.meaning}" in text
    assert f"Next step: {record.next_step}" in text
    assert f"Service:   {LIVE}" in text and "Request:   GET /accounts/user_x" in text
    assert "[REDACTED]" in text and "␛[31mred" in text
    assert "embedded sandbox" in ticket_text(hostile_record(""))


def test_an_extra_secret_given_by_the_caller_is_hidden_too() -> None:
    error = ApiError(400, "AC-100", "echo: other-secret-xyz", method="GET", path="/a")
    assert "other-secret-xyz" not in ticket_text(record_of(error), ["other-secret-xyz"])


def test_markdown_escapes_the_services_words() -> None:
    text = errors_markdown([hostile_record()], service_url=LIVE, exported_at=NOW, secrets=[SECRET])
    assert_clean(text)
    # No image, no link, no HTML tag survives as markup: each opener is escaped.
    for opener in (r"!\[", r"\]\(", "<img"):
        assert not re.search(r"(?<!\\)" + opener, text), opener
    assert r"\!\[x\](https://evil.example/t.png)" in text and r"\<img src=x\>" in text
    assert "## 1. AC-204 · 400 at 09:30:00 UTC" in text
    assert "- Request: `GET /accounts/user_x`" in text
    assert f"- Service: `{LIVE}`" in text and "- Errors: 1, oldest first" in text


def test_markdown_lists_every_record_oldest_first_with_its_guidance() -> None:
    records = [
        record_of(api_error("AC-104", endpoints.ACCOUNT, "/accounts/a")),
        record_of(TransportError("timeout", "slow", method="GET", path="/accounts/b")),
    ]
    text = errors_markdown(records, service_url="", exported_at=NOW)
    first, second = text.index("## 1. AC-104"), text.index("## 2. ")
    assert first < second
    assert ERRORS["AC-104"].next_step.replace(".", "") in text.replace("\\", "").replace(".", "")
    assert "Service: `embedded sandbox (no URL)`" in text
    assert "Code: — (no service code)" in text


def test_json_holds_every_field_redacted() -> None:
    lifted = record_of(
        api_error("AC-108", endpoints.REFRESH, "/accounts/u/refresh", retry_after=60)
    )
    text = errors_json([hostile_record(), lifted], service_url=LIVE, exported_at=NOW)
    assert_clean(text)
    document = json.loads(text)
    assert document["service_url"] == LIVE and document["embedded_sandbox"] is False
    first, second = document["errors"]
    assert first["code"] == "AC-204" and "␛" in first["message"]
    assert first["meaning"] == hostile_record().meaning
    assert second["block_lifts_at"] == "2026-11-20T09:31:00+00:00"
    assert second["next_step"] == ERRORS["AC-108"].next_step
    timeout = record_of(TransportError("timeout", "slow", method="GET", path="/a"))
    [entry] = json.loads(errors_json([timeout], service_url="", exported_at=NOW))["errors"]
    assert (entry["failure"], entry["code"]) == ("timeout", None)


# -- curl -----------------------------------------------------------------------------------


def command_line(snippet: str) -> list[str]:
    """The one line of the snippet that runs (the others are comments)."""
    [line] = [line for line in snippet.splitlines() if not line.startswith("#")]
    return shlex.split(line)


def test_curl_replays_the_request_with_the_token_as_a_variable() -> None:
    snippet = curl_command(
        record_of(api_error("AC-104", endpoints.BALANCE, "/accounts/u%2F1/balance"))
    )
    assert snippet is not None
    assert_clean(snippet)
    args = command_line(snippet)
    assert args[:2] == ["curl", "-sS"] and "-i" in args
    assert args[args.index("-X") + 1] == "GET"
    assert f"{LIVE}/accounts/u%2F1/balance" in args
    assert args[args.index("-H") + 1] == "Authorization: Bearer $TOKEN"
    # Double quotes in the shell: $TOKEN is read from the environment when run.
    assert '-H "Authorization: Bearer $TOKEN"' in snippet


def test_curl_never_holds_the_real_token_even_when_the_service_echoed_it() -> None:
    snippet = curl_command(hostile_record())
    assert snippet is not None
    assert_clean(snippet)


def test_curl_on_the_embedded_sandbox_targets_a_served_sandbox() -> None:
    record = record_of(api_error("AC-105", endpoints.BALANCE, "/accounts/user_manual/balance"), "")
    snippet = curl_command(record)
    assert snippet is not None
    assert "http://127.0.0.1:8765/accounts/user_manual/balance" in command_line(snippet)
    assert SANDBOX_SERVE_COMMAND in snippet and "no URL" in snippet


def test_curl_for_sign_in_sends_key_and_secret_as_variables() -> None:
    spec = ERRORS["AC-101"]
    error = ApiError(401, "AC-101", spec.message, method="POST", path="/token")
    snippet = curl_command(record_of(error))
    assert snippet is not None and "Authorization" not in snippet
    args = command_line(snippet)
    body = args[args.index("-d") + 1]
    assert body == '{"api_key":"$API_KEY","api_secret":"$API_SECRET"}'  # quoted: not expanded here
    assert '"$API_SECRET\\"}"' in snippet  # ...but expanded by the shell that runs it


def test_curl_for_an_mfa_answer_takes_the_answer_from_a_variable() -> None:
    error = api_error("AC-109", endpoints.MFA_ANSWER, "/accounts/u/mfa/job_1")
    args = command_line(curl_command(record_of(error)) or "")
    assert args[args.index("-d") + 1] == '{"answer":"$MFA_ANSWER"}'


def test_a_hostile_path_stays_one_argument() -> None:
    error = ApiError(404, "AC-102", "x", method="GET", path="/accounts/a';rm -rf ~;'")
    args = command_line(curl_command(record_of(error)) or "")
    assert f"{LIVE}/accounts/a';rm -rf ~;'" in args


@pytest.mark.parametrize(
    "error",
    [
        InvalidIdentifierError("user_id", "blank", method="GET", path="/accounts/{user_id}"),
        InternalError(RuntimeError("boom")),
    ],
    ids=["refused", "internal"],
)
def test_no_curl_when_no_request_went_out(error: object) -> None:
    assert curl_command(record_of(error)) is None


# -- files ------------------------------------------------------------------------------------


def test_exports_are_written_owner_only_under_the_data_dir(tmp_path: Path) -> None:
    settings = Settings(base_url=LIVE, api_key="k", api_secret=SecretStr(SECRET))
    dirs = AppDirs(tmp_path / "c.toml", tmp_path / "data", tmp_path / "logs")
    desk = Desk(settings, dirs, clock=lambda: NOW)
    desk.record_error(api_error("AC-104", endpoints.ACCOUNT, "/a"))
    for report in ReportFormat:
        path = export_errors(desk, report)
        assert path == tmp_path / "data" / "exports" / f"errors-20261120-093000.{report.value}"
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        text = path.read_text()
        assert ERRORS["AC-104"].meaning.split(":")[0] in text and SECRET not in text
    assert (
        json.loads((tmp_path / "data" / "exports" / "errors-20261120-093000.json").read_text())[
            "errors"
        ][0]["service_url"]
        == LIVE
    )
