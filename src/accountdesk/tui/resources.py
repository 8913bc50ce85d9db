"""Where the dashboard finds its stylesheets.

The ``.tcss`` files live in the repository's top-level ``styles/`` folder. A
wheel carries them inside the package (``accountdesk/styles``, see
``pyproject.toml``); a source checkout or editable install reads them from the
top-level folder. Both layouts resolve through :func:`styles_path`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = (
    Path(__file__).resolve().parent.parent
)  # src/accountdesk or site-packages/accountdesk


@cache
def styles_dir() -> Path:
    """The folder holding the ``.tcss`` files, installed or in a checkout."""
    installed = _PACKAGE_DIR / "styles"
    if installed.is_dir():
        return installed
    checkout = _PACKAGE_DIR.parent.parent / "styles"  # <repo>/src/accountdesk -> <repo>/styles
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(
        f"accountdesk stylesheets not found in {installed} or {checkout}; reinstall the package"
    )


def styles_path(name: str) -> Path:
    """Absolute path of one stylesheet, e.g. ``styles_path("login.tcss")``."""
    return styles_dir() / name
