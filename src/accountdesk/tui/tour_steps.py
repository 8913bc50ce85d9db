"""How each tour step is performed on the real screens, through the :class:`Driver`.

A step first goes where it can run (a lookup closes the account screens above
the lookup screen; an account action closes the identity or transactions
screen above the account), then does what a person would. When the app is
not where the step can run (no MFA dialog is open, nobody is signed in) it
raises :class:`StepNotPossible` with a sentence for the caption.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from accountdesk.core.tours.tour import Action, TourStep
from accountdesk.tui.base import desk_of
from accountdesk.tui.driver import Driver
from accountdesk.tui.screens.account import AccountScreen
from accountdesk.tui.screens.login import LoginScreen
from accountdesk.tui.screens.lookup import LookupScreen
from accountdesk.tui.screens.mfa import MfaDialog

__all__ = ["StepNotPossible", "perform"]

#: Steps that are an action of the account screen (the action's name is the step's).
_ACCOUNT_ACTIONS = frozenset(
    {
        Action.REFRESH_BALANCE,
        Action.START_IDENTITY,
        Action.START_TRANSACTIONS,
        Action.VIEW_IDENTITY,
        Action.VIEW_TRANSACTIONS,
    }
)
_APP_ACTIONS = {Action.SHOW_JOBS: "app.show_jobs", Action.SHOW_ERRORS: "app.show_error_log"}


class StepNotPossible(Exception):
    """The app is not where the step can run; the text says why, for the caption."""


async def perform(driver: Driver, step: TourStep) -> None:
    """Do what ``step`` says on the app ``driver`` drives (see the module docstring)."""
    app = driver.app
    desk = desk_of(app)
    if step.do is Action.SAY:
        return
    if step.do is Action.SIGN_IN:
        if not isinstance(app.screen, LoginScreen):
            raise StepNotPossible("The sign-in screen is not open: someone is signed in already.")
        # Without a secret of its own the step types the configured credential
        # (the sandbox's), whatever an earlier step left in the form.
        settings = desk.settings
        secret = step.secret or settings.api_secret.get_secret_value()
        await driver.sign_in(api_key=settings.api_key, api_secret=secret)
        return
    if step.do is Action.SHOW_ERRORS:  # as `e`: the error log is there before sign-in too
        await driver.run(_APP_ACTIONS[step.do])
        return
    if not desk.signed_in:
        raise StepNotPossible("Nobody is signed in: this step needs a signed-in session.")
    if step.do is Action.LOOK_UP:
        assert step.user is not None  # the tour's validation says so
        await _back_to(driver, LookupScreen, "The lookup screen is not open.")
        await driver.open_account(step.user)
    elif step.do in _ACCOUNT_ACTIONS:
        await _back_to(driver, AccountScreen, "No account is open: look a user up first.")
        await driver.run(str(step.do))
    elif step.do in _APP_ACTIONS:
        await driver.run(_APP_ACTIONS[step.do])
    elif step.do is Action.ANSWER_MFA:
        assert step.answer is not None
        if not isinstance(app.screen, MfaDialog):
            raise StepNotPossible("No MFA dialog is open: the service asked no question.")
        await driver.answer_mfa(step.answer)
    elif step.do is Action.ADVANCE_CLOCK:
        assert step.seconds is not None
        await driver.advance_sandbox_clock(step.seconds)
        # The open dialog holds live polling: it asks about its own job now,
        # as it would at its next check, so the audience sees the outcome.
        if isinstance(app.screen, MfaDialog):
            app.screen.check_job()
            await driver.settle()
    elif step.do is Action.BACK:
        if len(app.screen_stack) <= 1:  # the sign-in or lookup screen alone
            raise StepNotPossible("There is no screen to go back from.")
        await driver.back()


async def _back_to(driver: Driver, screen_type: type[Screen[Any]], missing: str) -> None:
    """Close the screens above the newest ``screen_type``; StepNotPossible when there is none."""
    app = driver.app
    if not any(isinstance(screen, screen_type) for screen in app.screen_stack):
        raise StepNotPossible(missing)
    while not isinstance(app.screen, screen_type):
        await app.pop_screen()
    await driver.settle()
