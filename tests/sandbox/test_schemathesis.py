"""The sandbox against its own OpenAPI document: a bounded schemathesis run.

Stateful: sequences follow the document's links, from the scenario catalogue
to each user's job starts, and from a job start to the job, its MFA answer
and resolve. Every response is checked by schemathesis (no 5xx; status,
content type, headers and body conform to the document) plus one check of
our own in place of the generic "schema-valid data is accepted": this
contract answers well-formed requests with 400 and 405 by design (AC-103,
AC-104, AC-106, AC-113; manual users), so what must never happen is the
*syntax* error AC-100 on a schema-valid request, except where state causes
it (resolve with no answer recorded; a clock already 100 years ahead).

Bounded by examples and steps, not by time; derandomized, so a run is the
same run every time. The canaries prove the checks can fail.
"""

from __future__ import annotations

import collections
import sys
from typing import Any

import hypothesis
import pytest
import schemathesis
from sandbox_helpers import GOOD, START
from schemathesis.core.failures import CustomFailure, FailureGroup, ServerError
from schemathesis.generation import GenerationMode
from schemathesis.openapi.checks import JsonSchemaError
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from accountdesk.sandbox import FrozenClock, create_app
from accountdesk.sandbox.errors import SandboxError

pytestmark = pytest.mark.schemathesis

SETTINGS = hypothesis.settings(
    max_examples=30,
    stateful_step_count=8,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[hypothesis.Phase.generate],
    suppress_health_check=list(hypothesis.HealthCheck),
)
#: Where AC-100 may answer a schema-valid request: its cause is state, not syntax.
AC_100_BY_STATE = {"resolve_mfa", "advance_clock"}


def ac_100_only_for_bad_syntax(ctx: Any, response: Any, case: Any) -> None:
    """A schema-valid request never gets the syntax error AC-100 (see module doc)."""
    if response.status_code == 400 and response.json()["error"]["code"] == "AC-100":
        operation_id = case.operation.definition.raw["operationId"]
        assert operation_id in AC_100_BY_STATE, f"{case.operation.label}: AC-100 for valid data"


def _schema(app: Any) -> Any:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    schema.config.generation.update(modes=[GenerationMode.POSITIVE])

    @schema.auth(refresh_interval=None)
    class Bearer:
        """A fresh sandbox_key token for every call (the clock may have moved a year)."""

        def get(self, case: Any, ctx: Any) -> str:
            return app.state.engine.issue_token(*GOOD)["access_token"]

        def set(self, case: Any, data: str, ctx: Any) -> None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}

    return schema


def _machine(app: Any, answers: collections.Counter[tuple[str, int]]) -> Any:
    class SandboxWorkflow(_schema(app).as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            # Every scenario starts from the same sandbox: hypothesis replays
            # scenarios and must see the same answers.
            super().setup()
            app.state.engine.reset()

        def before_call(self, case: Any) -> None:
            super().before_call(case)
            if case.operation.definition.raw["operationId"] == "advance_clock":
                # Keep clear of the 100-year bound, so a step is refused only for its size.
                clock = app.state.clock
                if clock.offset.days > 90 * 365:
                    clock.reset()

        def after_call(self, response: Any, case: Any) -> None:
            answers[(case.operation.definition.raw["operationId"], response.status_code)] += 1
            super().after_call(response, case)

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(
                response,
                additional_checks=[ac_100_only_for_bad_syntax],
                excluded_checks=[positive_data_acceptance],
                recorder=self.recorder,
            )

    return SandboxWorkflow


def test_stateful_run_conforms_to_the_document() -> None:
    app = create_app(clock=FrozenClock(START), ids=1)
    answers: collections.Counter[tuple[str, int]] = collections.Counter()
    # schemathesis runs an ASGI app in a portal thread: each call hands the GIL
    # over and back, and waits up to the switch interval (5 ms) each time.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    try:
        _machine(app, answers).run(settings=SETTINGS)
    finally:
        sys.setswitchinterval(interval)
    # The run went where the links lead, not only to 4xx: real jobs, read back
    # and answered through their MFA operations.
    reached = {key for key, count in answers.items() if count}
    for expected in (
        ("list_scenarios", 200),
        ("refresh_balance", 202),
        ("start_identity", 202),
        ("start_transactions", 202),
        ("get_job", 200),
        ("submit_mfa", 200),
        ("resolve_mfa", 200),
    ):
        assert expected in reached, (expected, sorted(answers.items()))
    assert not any(status >= 500 for _, status in reached)


# -- canaries: the same checks fail on a broken sandbox ----------------------------


def _failures(app: Any, path: str, method: str, **parameters: Any) -> list[type]:
    """The kinds of failure the checks find in one call (none for a sound answer)."""
    try:
        _check_once(app, path, method, **parameters)
    except FailureGroup as group:
        return [type(failure) for failure in group.exceptions]
    return []


def _check_once(app: Any, path: str, method: str, **parameters: Any) -> None:
    schema = _schema(app)
    case = schema[path][method].Case(path_parameters=parameters)
    case.headers = {
        "Authorization": f"Bearer {app.state.engine.issue_token(*GOOD)['access_token']}"
    }
    case.validate_response(
        case.call(),
        additional_checks=[ac_100_only_for_bad_syntax],
        # ignored_auth takes a header set by hand for a generated one; the
        # stateful run, where the auth provider signs, keeps that check.
        excluded_checks=[positive_data_acceptance, ignored_auth],
    )


def test_canary_a_record_off_the_document_fails() -> None:
    app = create_app(clock=FrozenClock(START), ids=1)
    balance = "/accounts/{user_id}/balance"
    assert _failures(app, balance, "GET", user_id="user_good") == []  # sound: passes
    real = app.state.engine.get_balance
    app.state.engine.get_balance = lambda *args: {**real(*args), "available": 12.5}
    assert JsonSchemaError in _failures(app, balance, "GET", user_id="user_good")


def test_canary_a_crash_fails(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(clock=FrozenClock(START), ids=1)

    def crash(*args: object) -> None:
        raise RuntimeError("boom")

    app.state.engine.get_account = crash
    assert ServerError in _failures(app, "/accounts/{user_id}", "GET", user_id="user_good")


def test_canary_a_syntax_error_for_valid_data_fails() -> None:
    app = create_app(clock=FrozenClock(START), ids=1)

    def refuse(*args: object) -> None:
        raise SandboxError("AC-100")

    app.state.engine.get_identity = refuse
    failures = _failures(app, "/accounts/{user_id}/identity", "GET", user_id="user_good")
    assert failures == [CustomFailure]
