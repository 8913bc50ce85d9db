def test_unknown_fields_are_kept_but_never_shown_in_reprs() -> None:
    from accountdesk.client.models import Account

    account = Account.from_json(
        b'{"user_id": "u1", "account_number": "4820193756", "full_pan": "4111111111111111"}'
    )
    assert account.model_extra == {"full_pan": "4111111111111111"}
    shown = f"{account!r} {account!s}"
    assert "4111111111111111" not in shown and "4820193756" not in shown
    assert "user_id='u1'" in shown
