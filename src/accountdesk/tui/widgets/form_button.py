"""The sign-in form's buttons: Textual's ``Button``, with only the CSS of the kinds they are.

Textual's ``Button`` brings 7.3 KB of CSS for every variant and style (flat,
success, warning, error...), the largest source parsed before the first
frame (~4 ms of the sign-in screen's ~26 ms of parsing). The sign-in screen
draws two buttons of two kinds: a default one, compact ("Show"), and a
primary one ("Sign in"). :class:`FormButton` carries those rules, copied
from Textual's (pinned) as they are, the ANSI theme's included, in place of
``Button``'s own; the CSS of the classes below it (``Widget``) still comes.
A test compares the rules that reach it with those that reach Textual's
button, kind by kind and state by state, in the dark and light themes and
with ANSI colours.

It is still a ``Button`` to a stylesheet (``Button`` selects it). Other
screens keep Textual's ``Button``: its CSS is parsed when the first of them
opens, and its rules for these kinds are the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from textual.widgets import Button

if TYPE_CHECKING:
    from textual.css.types import CSSLocation

__all__ = ["FormButton"]


class FormButton(Button):
    """A Textual ``Button``, default or primary, with only those rules (module docstring)."""

    DEFAULT_CSS = """
    FormButton:ansi.-style-default {
        border: tall $border-blurred;
        background: ansi_default;

        &:disabled {
            text-opacity: 1;
            text-style: bold dim;
            border: tall $border-blurred !important;
            background: ansi_default !important;
            pointer: not-allowed;
            &:hover {
                background: ansi_default;
            }
        }
        &:hover {
            background: $ansi-background;
            border: tall $border;
        }
        &.-active {
            background: $ansi-background !important;
            border: blank $background !important;
            tint: transparent;
        }
        &.-primary {
            color: $primary;
            border: tall $primary;
            background: ansi_default;
            &:hover {
                background: $ansi-background;
            }
        }
    }

    FormButton {
        width: auto;
        min-width: 16;
        height: auto;
        line-pad: 1;
        text-align: center;
        content-align: center middle;
        pointer: pointer;

        &.-style-default {
            text-style: bold;
            color: $button-foreground;
            background: $surface;
            border: none;
            border-top: tall $surface-lighten-1;
            border-bottom: tall $surface-darken-1;

            &.-textual-compact {
                border: none !important;
            }
            &:disabled {
                text-opacity: 0.6;
                pointer: not-allowed;
            }
            &:focus {
                text-style: $button-focus-text-style;
                background-tint: $foreground 5%;
            }
            &:hover {
                border-top: tall $surface;
                background: $surface-darken-1;
            }
            &.-active {
                background: $surface;
                border-bottom: tall $surface-lighten-1;
                border-top: tall $surface-darken-1;
                tint: $background 30%;
            }
            &.-primary {
                color: $button-color-foreground;
                background: $primary;
                border-top: tall $primary-lighten-3;
                border-bottom: tall $primary-darken-3;

                &:hover {
                    background: $primary-darken-2;
                    border-top: tall $primary;
                }
                &.-active {
                    background: $primary;
                    border-bottom: tall $primary-lighten-3;
                    border-top: tall $primary-darken-3;
                }
            }
        }
    }
    """

    def __init__(
        self,
        label: str,
        variant: Literal["default", "primary"] = "default",
        *,
        id: str | None = None,
        compact: bool = False,
    ) -> None:
        super().__init__(label, variant, id=id, compact=compact)

    def _get_default_css(self) -> list[tuple[CSSLocation, str, int, str]]:
        # Textual's Button CSS left out: this class's own stands for it.
        return [
            source
            for source in super()._get_default_css()
            if source[0][1] != f"{Button.__name__}.DEFAULT_CSS"
        ]
