"""The dashboard's terminal driver: Textual's Linux driver, with input and size a person can trust.

Three changes to :class:`textual.drivers.linux_driver.LinuxDriver`, each for
something met at a real terminal (see :mod:`accountdesk.tui.terminal`):

- the size is the real terminal's, not ``COLUMNS``/``LINES`` (which Python's
  ``shutil.get_terminal_size`` prefers), and bounded;
- input passes through a :class:`~accountdesk.tui.terminal.PasteGuard` before
  Textual's parser, so a paste holding an ESC stays one paste, never keys;
- a closed input (the terminal hung up) ends the app instead of spinning on
  an end-of-file at 100 % of a core.

The input loop is Textual's (8.2.8, pinned) with those two changes; it is
small, and Textual offers no hook to put a filter before its parser.
"""

from __future__ import annotations

import os
import selectors
import sys
from codecs import getincrementaldecoder

from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

from accountdesk.tui.terminal import PasteGuard, terminal_size

__all__ = ["TerminalDriver"]


class TerminalDriver(LinuxDriver):
    """Textual's Linux driver; see the module docstring."""

    def _get_terminal_size(self) -> tuple[int, int]:
        fds = [stream.fileno() for stream in (sys.__stderr__, sys.__stdin__) if stream is not None]
        return terminal_size(fds, os.environ)

    def run_input_thread(self) -> None:
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        guard = PasteGuard()
        decode = getincrementaldecoder("utf-8")(errors="replace").decode

        def read_ready(ready: list[tuple[selectors.SelectorKey, int]], final: bool) -> bool:
            """Feed what arrived to the parser; False once the input has closed."""
            for index, (_key, mask) in enumerate(ready):
                if not mask & selectors.EVENT_READ:
                    continue
                data = os.read(self.fileno, 4096)
                if not data:
                    return False
                # Empty when a character's bytes are still arriving (or a paste's
                # end marker may be): feeding "" would tell the parser the input ended.
                text = guard.feed(decode(data, final=final and index == len(ready) - 1))
                if text:
                    for event in parser.feed(text):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)
            return True

        try:
            while not self.exit_event.is_set():
                if not read_ready(selector.select(0.1), final=False):
                    # End of input: nobody can type here any more. Through the
                    # app's loop, never waiting on it (it may be joining us).
                    self._loop.call_soon_threadsafe(self._app.exit, None, 1)
                    return
            selector.unregister(self.fileno)
            read_ready(selector.select(0.1), final=True)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass
