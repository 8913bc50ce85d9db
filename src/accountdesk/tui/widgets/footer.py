"""The key bar at the bottom of every screen: the app's keys first, and only keys that fit whole.

- Order: Quit, Help, Jobs and Errors first wherever they are active (issue
  "Daily use"), then the screen's keys in binding order. Textual lays keys
  out in binding order and the screen's come first, so a busy screen pushed
  the app's off the right edge. The order stays put when keys are left out,
  so each is where the eye expects it on every screen.
- Width: when not every key fits, keys are left out whole, the least needed
  first (``tui.key_needs``: the rule, and every screen's keys by it; among
  equals, the later in the bar first), until the rest fits. Before, the bar
  kept keys by position: the account's ``s`` never showed at 120 columns,
  the transactions' ``1-5 Sort`` and the jobs' ``p``/``r`` not at 80, keys
  the daily-use manual teaches. Textual's bar cut the last key mid-word
  ("rRevea", "v Ide", "esc Ba"). Left-out keys are still in F1 help and the
  command palette.
- A group of keys (the transactions table's sort keys 1-5) is one key:
  ``1-5 Sort``. Textual draws such a group in a container of its own, which
  reordering the keys left empty at the start of the bar (two stray spaces).
- Cost: it composes its keys with the screen (Textual's waits for the
  screen's first refresh and composes them then, once more), again only
  when the keys shown change (Textual's does at every focus change, a dozen
  times while the transactions screen opens), and its keys do not restyle
  themselves one by one once mounted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.widgets import Footer

from accountdesk.tui.key_needs import Need, key_needs
from accountdesk.tui.seams.widgets import FooterKey

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.binding import ActiveBinding
    from textual.screen import Screen

__all__ = ["GLOBAL_ACTIONS", "AppFooter"]

#: The app's keys, in the order they show (an action, whichever node binds it).
GLOBAL_ACTIONS = ("quit", "help", "show_jobs", "show_error_log")


def _rank(action: str) -> int:
    action = action.removeprefix("app.")
    return GLOBAL_ACTIONS.index(action) if action in GLOBAL_ACTIONS else len(GLOBAL_ACTIONS)


def _shown_bindings(active: Mapping[str, ActiveBinding]) -> tuple[Any, ...]:
    """Everything the footer draws its keys from (a screen's ``active_bindings``), comparable."""
    return tuple(
        (key, binding, enabled, tooltip)
        for key, (_, binding, enabled, tooltip) in active.items()
        if binding.show
    )


def _group_keys(displays: list[str]) -> str:
    """``1-5`` for a run of digits, else the keys joined by ``/``."""
    if len(displays) > 2 and all(d.isdigit() and len(d) == 1 for d in displays):
        numbers = [int(d) for d in displays]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            return f"{displays[0]}-{displays[-1]}"
    return "/".join(displays)


class AppFooter(Footer):
    """Compact, the app's keys first, only whole keys (see the module docstring).

    The command palette's hint lives in the header: beside a full footer
    Textual draws it over the last key.
    """

    def __init__(self) -> None:
        super().__init__(compact=True, show_command_palette=False)
        #: What the keys shown were composed from (None: not composed yet).
        self._shown: tuple[Any, ...] | None = None
        #: Each composed key's need, in the bar's order.
        self._needs: list[Need] = []

    def bindings_changed(self, screen: Screen[Any]) -> None:
        # Textual composes the footer again at every focus change, once per
        # change even when several come before a refresh. Most changes leave
        # the keys shown as they were; then there is nothing to do.
        # Compared with what was composed last (compose records it), not
        # with what the last call saw: a call whose recompose then read other
        # keys (a tour's Esc, just before the tour was left over the MFA
        # dialog) left the bar without "esc Back" once the dialog closed.
        if (
            screen.app.app_focus
            and self.is_attached
            and screen is self.screen
            and _shown_bindings(screen.active_bindings) == self._shown
        ):
            return
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        # With the screen, not after its first refresh (Textual waits for the
        # first bindings_changed): the keys are in the screen's first frame,
        # and the screen's resume finds them composed. Textual's wait made
        # one more compose and layout (~40 ms of the loop) land just after
        # the first frame: in the transactions screen's read, and on a key
        # pressed the moment its first rows showed. A screen whose
        # check_action reads widgets not mounted yet says its keys later.
        try:
            active = self.screen.active_bindings  # built once: every check_action runs
        except NoMatches:
            self._shown = None
            return
        self._shown = _shown_bindings(active)  # what this compose draws
        needs = key_needs(self.screen)

        def need(binding: Binding) -> Need:
            return needs.get(binding.id or "", Need.USEFUL)

        # One entry per action (its first key), groups gathered, in binding order.
        entries: list[tuple[str, str, str, bool, str, Need]] = []  # display, description, ...
        grouped: dict[Binding.Group, list[tuple[Binding, bool, str]]] = {}
        seen: set[str] = set()
        for _node, binding, enabled, tooltip in active.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            if binding.group is not None:
                if binding.group not in grouped:
                    grouped[binding.group] = []
                    group_entry = ("", binding.group.description, binding.action, True, "")
                    entries.append((*group_entry, need(binding)))
                grouped[binding.group].append((binding, enabled, tooltip))
                continue
            display = self.app.get_key_display(binding)
            entries.append(
                (display, binding.description, binding.action, enabled, tooltip, need(binding))
            )
        for group, members in grouped.items():
            index = next(i for i, entry in enumerate(entries) if entry[1] == group.description)
            first, _enabled, _tooltip = members[0]
            display = _group_keys([self.app.get_key_display(b) for b, _e, _t in members])
            enabled = any(member_enabled for _b, member_enabled, _t in members)
            entries[index] = (display, group.description, first.action, enabled, "", need(first))
        # sorted() is stable: the screen's keys keep their own order after the app's.
        entries.sort(key=lambda entry: _rank(entry[2]))
        self._needs = [entry[5] for entry in entries]
        for display, description, action, enabled, tooltip, _need in entries:
            key = FooterKey(
                display, display, description, action, disabled=not enabled, tooltip=tooltip
            )
            # Each key's compact watcher adds this class once mounted, a style
            # pass per key; already there, the watcher changes nothing.
            key.add_class("-compact", update=False)
            yield key

    def on_mount(self) -> None:
        super().on_mount()
        self.call_after_refresh(self._fit_keys)

    def on_resize(self, event: events.Resize) -> None:
        self._fit_keys(event.size.width)

    async def recompose(self) -> None:
        await super().recompose()
        self._fit_keys()

    def _fit_keys(self, width: int | None = None) -> None:
        """Show the keys that fit whole: leave out the least needed first, the later first."""
        room = self.size.width if width is None else width
        keys = list(self.query(FooterKey))
        # Compact: "key description" and one cell of margin after each.
        cells = [
            cell_len(key.key_display) + (1 + cell_len(key.description) if key.description else 0)
            for key in keys
        ]
        needs = self._needs if len(self._needs) == len(keys) else [Need.USEFUL] * len(keys)
        shown = [True] * len(keys)
        used = sum(cells) + len(keys) - 1  # no margin after the last
        for index in sorted(range(len(keys)), key=lambda i: (needs[i], i), reverse=True):
            if used <= room:
                break
            shown[index] = False
            used -= cells[index] + 1
        for key, fits in zip(keys, shown, strict=True):
            if key.display != fits:
                key.display = fits
