"""What ``accountdesk sandbox`` prints first: where it listens, how to sign in and connect."""

from __future__ import annotations

import pytest

from accountdesk.sandbox import welcome_lines


def test_a_new_user_is_told_the_credentials_and_the_command_to_connect() -> None:
    lines = welcome_lines("127.0.0.1", 8799)
    assert lines[0] == "accountdesk sandbox on http://127.0.0.1:8799"
    assert "API key sandbox_key, secret sandbox_secret" in lines[1]
    assert lines[2].endswith("accountdesk --base-url http://127.0.0.1:8799")
    assert not any("trainee_" in line for line in lines)


def test_a_training_room_is_told_the_trainee_keys() -> None:
    lines = welcome_lines("127.0.0.1", 8798, tenants=True)
    [room] = [line for line in lines if "training room" in line]
    assert "API key trainee_<name>" in room and "secret sandbox_secret" in room


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("0.0.0.0", "http://<this machine>:8765"),
        ("::1", "http://[::1]:8765"),
        ("trainer.example", "http://trainer.example:8765"),
    ],
)
def test_the_address_is_one_a_trainee_can_type(host: str, url: str) -> None:
    assert welcome_lines(host, 8765)[0].endswith(url)
