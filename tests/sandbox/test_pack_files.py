"""Scenario pack files: every problem is one line naming the file, the line or field, and what is expected."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from accountdesk.sandbox import SCENARIO_USERS, load_scenarios
from accountdesk.sandbox.packs.models import MAX_PACK_BYTES, pack_schema
from accountdesk.sandbox.packs.reading import PackError, shipped_pack_path

GOOD_USER = """
[[users]]
id = "case_1"
"""


def _write(tmp_path: Path, text: str, name: str = "pack.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _problems(*paths: Path) -> list[str]:
    with pytest.raises(PackError) as caught:
        load_scenarios(paths)
    return caught.value.problems


def test_the_shipped_users_come_from_the_default_pack_in_its_order() -> None:
    text = shipped_pack_path().read_text(encoding="utf-8")
    ids = [line.split('"')[1] for line in text.splitlines() if line.startswith("id = ")]
    assert ids == list(SCENARIO_USERS) and len(ids) == 8
    scenarios = load_scenarios()
    assert [c.api_key for c in scenarios.credentials] == ["sandbox_key", "limited_key"]
    assert scenarios.sources[0].shipped and scenarios.clock_start is None


def test_a_pack_adds_users_after_the_shipped_ones(tmp_path: Path) -> None:
    scenarios = load_scenarios([_write(tmp_path, GOOD_USER)])
    assert list(scenarios.users)[-1] == "case_1"
    assert len(scenarios.users) == len(SCENARIO_USERS) + 1
    # A user with nothing but an id still answers every read with data.
    case = scenarios.users["case_1"]
    assert case.account.account_number and case.account.routing_number
    assert case.account.account_number_masked == "••••" + case.account.account_number[-4:]
    assert case.summary == "linked" and case.source.endswith("pack.toml")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            GOOD_USER + "[users.account]\nrouting_number = 123\n",
            (
                "line 5: users[1] (case_1).account.routing_number: expected text in quotes, "
                "got an integer"
            ),
        ),
        (
            GOOD_USER + "sumary = 'x'\n",
            "line 4: users[1] (case_1).sumary: unknown key; did you mean 'summary'?",
        ),
        (
            GOOD_USER + "[[users.answers]]\nendpoint = 'get_balanse'\ncode = 'AC-106'\n",
            (
                "line 5: users[1] (case_1).answers[1].endpoint: 'get_balanse' is not an endpoint; "
                "did you mean 'get_balance'?"
            ),
        ),
        (
            GOOD_USER + "[[users.answers]]\nendpoint = 'get_account'\ncode = 'AC-777'\n",
            (
                "line 4: users[1] (case_1).answers[1]: AC-777 is not in the catalogue: "
                "give its status and message"
            ),
        ),
        (
            GOOD_USER + "[[users.answers]]\nendpoint = 'get_account'\ncode = 'E-1'\n",
            "line 6: users[1] (case_1).answers[1].code: 'E-1' is not an error code",
        ),
        (
            '[[users]]\nid = "../x"\n',
            "line 2: users[1] (../x).id: '/' is not allowed",
        ),
        (
            GOOD_USER + "[users.transactions]\ncount = 2000000\n",
            (
                "line 5: users[1] (case_1).transactions.count: at most 1,000,000 generated "
                "transactions per user"
            ),
        ),
        (
            GOOD_USER + "[users.transactions]\nrows = [\n  { transaction_id = 't1', amount = "
            "'-1.00' },\n  { transaction_id = 't2', amount = 5 },\n]\n",
            "line 7: users[1] (case_1).transactions.rows[2].amount: expected text in quotes",
        ),
        (
            GOOD_USER + "[users.transactions]\ncount = 5\nrows = []\n",
            "users[1] (case_1).transactions: rows are listed, so count cannot be given too",
        ),
        (
            GOOD_USER + "[users.transactions]\ncategories = ['Grocerys']\n",
            "'Grocerys' is not a category; did you mean 'Groceries'?",
        ),
        (
            GOOD_USER + "[users.mfa]\nanswer = '1234'\nkinds = ['identiy']\n",
            "users[1] (case_1).mfa.kinds: 'identiy' is not a job kind; did you mean 'identity'?",
        ),
        (
            GOOD_USER + f"summary = '{'x' * 241}'\n",
            "users[1] (case_1).summary: at most 240 characters (this has 241)",
        ),
        (
            GOOD_USER + "[users.identity]\nnames = " + json.dumps(["A"] * 101) + "\n",
            "users[1] (case_1).identity.names: at most 100 items (this has 101)",
        ),
        (
            "[clock]\nstart = 2026-03-02T09:00:00\n",
            "line 2: clock.start: needs a UTC offset",
        ),
        (
            "[[credentials]]\napi_key = 'trainee_x'\napi_secret = 's'\n",
            "credentials[1].api_key: trainee_ keys belong to the training room",
        ),
        ("users = 3\n", "line 1: users: expected a list [...], got an integer"),
        ('[[users]]\nid = "a"\n[users.balance]\navailable = "12,50"\n', "not an amount"),
    ],
)
def test_each_problem_is_one_line_naming_the_file_the_line_and_the_field(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = _write(tmp_path, text)
    problems = _problems(path)
    assert any(expected in problem for problem in problems), problems
    for problem in problems:
        assert problem.startswith(f"{path}: ") and "\n" not in problem
        assert "Traceback" not in problem and "pydantic" not in problem


def test_a_secret_is_never_repeated_in_a_message(tmp_path: Path) -> None:
    path = _write(tmp_path, "[[credentials]]\napi_key = 'k'\napi_secret = ['hunter2-secret']\n")
    (problem,) = _problems(path)
    assert "hunter2" not in problem and "expected text in quotes, got a list" in problem


def test_every_problem_of_a_file_is_listed_in_file_order(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD_USER + "sumary = 'x'\n[users.account]\nrouting_number = 1\n")
    problems = _problems(path)
    assert [p.split(": ")[1] for p in problems] == ["line 4", "line 6"]


def test_more_than_twenty_problems_end_with_how_many_more(tmp_path: Path) -> None:
    users = "".join(f"[[users]]\nid = 'u{n}'\nsumary = 1\n" for n in range(25))
    problems = _problems(_write(tmp_path, users))
    assert len(problems) == 21 and problems[-1].endswith("and 5 more problems")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'title = "caf\xe9"\n', "line 1: not UTF-8 text (byte 0xe9)"),
        (b"[[users]]\nid = \n", "line 2, column 6: not valid TOML"),
        (b"\xef\xbb\xbf[[users]]\nid = 'bom'\n", None),  # a BOM is not an error
    ],
)
def test_bytes_and_syntax(tmp_path: Path, content: bytes, expected: str | None) -> None:
    path = tmp_path / "pack.toml"
    path.write_bytes(content)
    if expected is None:
        assert "bom" in load_scenarios([path]).users
        return
    assert _problems(path) == [f"{path}: {expected}" + _rest(_problems(path)[0], expected)]


def _rest(problem: str, expected: str) -> str:
    return problem.split(expected, 1)[1]


def test_a_missing_file_a_folder_and_a_file_too_large(tmp_path: Path) -> None:
    assert _problems(tmp_path / "nope.toml") == [f"{tmp_path / 'nope.toml'}: no such file"]
    assert _problems(tmp_path) == [f"{tmp_path}: is a folder, not a scenario pack file"]
    big = tmp_path / "big.toml"
    with big.open("wb") as stream:
        stream.truncate(MAX_PACK_BYTES + 1)
    (problem,) = _problems(big)
    assert problem == f"{big}: is 16.0 MB; a pack is at most 16 MB"


def test_users_per_pack_are_bounded(tmp_path: Path) -> None:
    users = "".join(f"[[users]]\nid = 'u{n}'\n" for n in range(1001))
    (problem,) = _problems(_write(tmp_path, users))
    assert problem.endswith("users: at most 1,000 users per pack (this has 1,001)")


def test_a_user_defined_twice_names_both_files(tmp_path: Path) -> None:
    first = _write(tmp_path, GOOD_USER, "first.toml")
    second = _write(tmp_path, GOOD_USER + '[[users]]\nid = "b"\n[[users]]\nid = "b"\n', "2.toml")
    problems = _problems(first, second)
    assert problems == [
        f"{second}: users[1] (case_1): the user id is defined twice: here and in {first}",
        f"{second}: users[3] (b): the user id is defined twice: here and earlier in this file",
    ]
    # A pack's user of a shipped user's id replaces it (listed with the pack's users).
    shipped = _write(tmp_path, '[[users]]\nid = "user_good"\n', "third.toml")
    served = load_scenarios([shipped])
    assert served.users["user_good"].source == str(shipped)
    assert list(served.users)[-1] == "user_good"
    assert served.sources[-1].replaces == ("user_good",)
    assert "user_good" not in served.sources[0].user_ids
    # ...but only a shipped one: two packs of that id are still a conflict.
    again = _write(tmp_path, '[[users]]\nid = "user_good"\n', "fourth.toml")
    (problem,) = _problems(shipped, again)
    assert (
        problem
        == f"{again}: users[1] (user_good): the user id is defined twice: here and in {shipped}"
    )


def test_credentials_and_clock_starts_that_disagree_name_both_files(tmp_path: Path) -> None:
    one = _write(
        tmp_path,
        "[clock]\nstart = 2026-03-02T09:00:00Z\n[[credentials]]\napi_key = 'sandbox_key'\n"
        "api_secret = 'x'\n[[credentials]]\napi_key = 'k'\napi_secret = 's'\nusers = ['ghost']\n",
        "one.toml",
    )
    two = _write(tmp_path, "[clock]\nstart = 2026-03-03T09:00:00Z\n", "two.toml")
    problems = _problems(one, two)
    twice = "API key sandbox_key is defined twice: here and in the shipped default pack"
    assert f"{one}: credentials[1]: {twice}" in problems
    assert f"{one}: credentials (k): users: no scenario user ghost" in problems
    assert any(p.startswith(f"{two}: clock.start: {one} starts the clock at") for p in problems)


def test_every_file_is_checked_before_one_is_refused(tmp_path: Path) -> None:
    problems = _problems(tmp_path / "a.toml", tmp_path / "b.toml")
    assert problems == [
        f"{tmp_path / 'a.toml'}: no such file",
        f"{tmp_path / 'b.toml'}: no such file",
    ]


def test_the_schema_is_generated_from_the_models_and_accepts_the_shipped_packs() -> None:
    import tomllib

    import jsonschema

    schema = pack_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in shipped_pack_path().parent.glob("*.toml"):
        document = json.loads(json.dumps(tomllib.loads(path.read_text("utf-8")), default=str))
        assert list(validator.iter_errors(document)) == [], path.name
    assert list(validator.iter_errors({"users": [{"id": "x", "sumary": "typo"}]}))
    assert set(schema["properties"]) == {"title", "description", "clock", "credentials", "users"}


def test_reading_a_pack_imports_no_web_framework(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD_USER)
    code = (
        "import sys; from accountdesk.sandbox import load_scenarios; "
        f"load_scenarios([{str(path)!r}]); "
        "print(sorted(m for m in ('starlette', 'uvicorn', 'httpx', 'textual') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"
