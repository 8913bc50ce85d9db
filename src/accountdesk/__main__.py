"""``python -m accountdesk``: same as the ``accountdesk`` command."""

from __future__ import annotations

from accountdesk.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
