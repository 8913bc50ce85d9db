"""accountdesk: a terminal dashboard, a client and a sandbox for the Account Data Service.

The package root imports nothing, so ``import accountdesk.client`` stays free
of Textual, Starlette and uvicorn.
"""

__version__ = "0.1.0"

import logging as _logging

# A library's loggers get a NullHandler: without one, Python's last-resort
# handler would print warnings on stderr, which is the dashboard's screen.
_logging.getLogger(__name__).addHandler(_logging.NullHandler())
