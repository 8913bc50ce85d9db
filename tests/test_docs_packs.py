"""docs/trainer/scenario-packs.md stays true: its complete example loads, its lists are the code's."""

from __future__ import annotations

import re
from pathlib import Path

from accountdesk.core.tours.tour import load_tour
from accountdesk.sandbox import load_scenarios
from accountdesk.sandbox.generated import CATEGORIES
from accountdesk.sandbox.packs.models import ENDPOINT_NAMES

DOC = Path(__file__).parents[1] / "docs" / "trainer" / "scenario-packs.md"


def _blocks() -> list[str]:
    return re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_complete_example_is_a_pack_and_its_tour_a_tour(tmp_path: Path) -> None:
    example = next(block for block in _blocks() if "[[users]]" in block)
    pack = tmp_path / "escalation-drill.toml"
    pack.write_text(example, encoding="utf-8")
    scenarios = load_scenarios([pack])
    user = scenarios.users["drill_customer"]
    assert [answer.code for answer in user.answers] == ["AC-106", "AC-777", "AC-108"]
    assert user.mfa is not None and user.mfa.attempts == 2
    assert scenarios.credential("drill_key") is not None and scenarios.clock_start is not None
    # The commented-out listed rows are a pack's rows too.
    rows = "\n".join(
        line.removeprefix("# ")
        for line in example.splitlines()
        if line.startswith(("# rows", "#   ")) or line == "# ]"
    )
    listed = tmp_path / "listed.toml"
    listed.write_text(f'[[users]]\nid = "listed"\n[users.transactions]\n{rows}\n', encoding="utf-8")
    assert len(load_scenarios([listed]).users["listed"].transactions) == 2
    tour = next(block for block in _blocks() if "[[steps]]" in block)
    (tmp_path / "drill.toml").write_text(tour, encoding="utf-8")
    assert load_tour(tmp_path / "drill.toml").scenario_files == (
        tmp_path / "escalation-drill.toml",
    )


def test_the_lists_are_the_codes_lists() -> None:
    text = DOC.read_text(encoding="utf-8")
    categories = re.search(r"merchants in (\d+) categories\n\(([^)]*)\)", text)
    assert categories is not None
    named = set(re.findall(r"`(\w+)`", categories.group(2)))
    assert named == set(CATEGORIES) and int(categories.group(1)) == len(CATEGORIES)
    endpoints = re.search(r"\| `endpoint` \| (.*) \|", text)
    assert endpoints is not None
    assert re.findall(r"`(\w+)`", endpoints.group(1)) == list(ENDPOINT_NAMES)


def test_the_pages_count_the_shipped_users_right() -> None:
    # The shipped default pack is what `accountdesk sandbox` serves (the
    # example pack's user is not among them).
    from accountdesk.sandbox import SCENARIO_USERS

    words = {"seven": 7, "eight": 8, "nine": 9, "ten": 10}
    pages = [DOC, DOC.parent / "cases.md", DOC.parent / "writing-tours.md"]
    counted = [
        (page.name, word)
        for page in pages
        for word in re.findall(r"\b(\w+) shipped users\b", page.read_text(encoding="utf-8"))
        if word in words
    ]
    assert counted, "the pages count the shipped users"
    assert [(name, words[word]) for name, word in counted] == [
        (name, len(SCENARIO_USERS)) for name, _ in counted
    ]
