"""accountdesk: a terminal dashboard, a client and a sandbox for the Account Data Service.

The package root imports nothing, so ``import accountdesk.client`` stays free
of Textual and FastAPI.
"""

__version__ = "0.1.0"
