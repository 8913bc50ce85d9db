"""Widths as terminals draw them: rich's width table, corrected for emoji skin tones.

rich joins a thumb and its skin-tone modifier (``👍🏽``) into one glyph two
cells wide; tmux 3.3, xterm and most terminals draw them side by side, four
cells, so every cell after it on the line moved two to the right (a box's
border was eaten; found by a whole-process test in a pseudo-terminal). rich
reads its widths from ``rich._unicode_data``, a private module with no
public way to change them. No upstream report (related:
jquast/wcwidth#133); the draft is in docs/developer/seams.md.
"""

from __future__ import annotations

__all__ = ["measure_as_terminals_draw"]


#: Emoji skin-tone modifiers (Fitzpatrick types 1-2 to 6).
_SKIN_TONES = (0x1F3FB, 0x1F3FF)


def measure_as_terminals_draw() -> None:
    """Make rich count a skin-tone modifier as terminals draw it: 2 cells, not 0.

    rich joins ``👍🏽`` into one 2-cell glyph; tmux 3.3, xterm and most
    terminals draw the thumb and the tone side by side, 4 cells, so every
    cell after it on the line moved two to the right (a box's border was
    eaten). CJK, plain emoji, flags, combining marks and right-to-left text
    already measure alike. Terminals that do join the pair (kitty, WezTerm)
    leave two blank cells after it instead: nothing is overwritten.
    Idempotent; changes rich's width table for this process.
    """
    import rich.cells
    from rich._unicode_data import load

    table = load("auto").widths
    start, end = _SKIN_TONES
    if not isinstance(table, list):  # rich changed shape: leave it as it is
        return
    for index, (low, high, width) in enumerate(table):
        if low == start and high == end:
            if width == 2:
                return
            table[index] = (low, high, 2)
            rich.cells.get_character_cell_size.cache_clear()
            rich.cells.cached_cell_len.cache_clear()
            return
