"""The desk core: the app's state with no Textual import.

Settings, the one store for every file we keep, tracked jobs and the job
poller's state machine, recent lookups, the error log and the view models of
the screens (transactions, MFA). Tested without a screen; a test checks that
importing it loads neither Textual nor the sandbox. The Textual layer
(``accountdesk.tui``) keeps screens, widgets, the app shell and the glue that
turns core events into messages.

Modules are imported directly (``from accountdesk.core.desk import Desk``):
this package's ``__init__`` imports nothing, so the first frame pays only for
what it uses.
"""
