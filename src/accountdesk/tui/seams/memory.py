"""What Textual keeps of widgets that are gone: let go as a screen goes.

Filled in with the soak's findings (``tests/tui/test_memory_churn.py``).
"""

from __future__ import annotations

__all__: list[str] = []
