"""``accountdesk --present`` as a person meets it: the whole process in a pseudo-terminal.

The badge is on the first frame, and nothing of the customer's is on the
account screen (its numbers revealed too), identity, transactions or jobs
screens, read back through a terminal emulator.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pty_terminal import PtyApp

#: user_good's customer, as the shipped default pack has them, and their parts.
ORIGINALS = [
    "user_good",
    "Avery",
    "Johnson",
    "ajohnson",
    "4820193756",
    "3756",
    "071000013",
    "0013",
    "312 555 0142",
    "0142",
    "Lake Shore",
    "Chicago",
    "60610",
]


def _clean(app: PtyApp, where: str) -> None:
    text = app.text()
    assert "PRESENTING" in text, (where, text)
    found = [original for original in ORIGINALS if original.casefold() in text.casefold()]
    assert not found, (where, found, text)


def test_the_whole_process_presents_from_its_first_frame(tmp_path: Path) -> None:
    with PtyApp.dashboard(tmp_path, "--present") as app:
        assert app.wait_for("accountdesk"), app.text()
        assert "PRESENTING" in app.text(), "the first frame says so"
        app.type("\r")  # the sign-in screen comes filled in on the sandbox
        assert app.wait_for("Look up a user"), app.text()
        _clean(app, "lookup")
        app.type("user_good\r")
        assert app.wait_for("'s Checking"), app.text()
        assert app.wait_until(lambda lines: "Loading" not in "\n".join(lines))
        _clean(app, "account")
        app.type("r")
        assert app.wait_until(lambda lines: "••••" not in "\n".join(lines)), app.text()
        _clean(app, "account, numbers revealed")
        app.type("v")
        assert app.wait_for("Names"), app.text()
        app.quiet()
        _clean(app, "identity")
        app.escape()
        app.type("x")
        assert app.wait_for("of 60"), app.text()
        _clean(app, "transactions")
        app.escape()
        app.type("b")
        app.type("j")
        assert app.wait_for("balance"), app.text()
        app.quiet()
        _clean(app, "jobs")
        app.type("\x11")  # Ctrl+Q: a job is running, so it asks
        assert app.wait_for("Quit anyway?"), app.text()
        _clean(app, "quitting")
        app.type("y")
        assert app.wait() == 0, app.text()
