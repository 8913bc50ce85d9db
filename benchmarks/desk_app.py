"""The dashboard on a terminal, as ``accountdesk`` starts it, with a choice of transport.

``python -m benchmarks.desk_app embedded`` is ``accountdesk`` on the embedded
sandbox; ``... stub`` the same app whose service answers from an in-memory
stub (no sandbox built), the floor of "sign-in to lookup". Both start like
the command: collection off until the first frame, then frozen. Files go to
the XDG folders of the environment (the benchmark gives each run its own).
"""

from __future__ import annotations

import gc
import sys


def main(transport: str) -> int:
    gc.disable()  # as accountdesk.cli.main
    from accountdesk.cli.startup import StartUp
    from accountdesk.core.settings.paths import default_data_dir
    from accountdesk.tui.app import AccountDeskApp
    from benchmarks.apps import make_desk, stub_transport

    desk = make_desk(
        default_data_dir(), transport=stub_transport() if transport == "stub" else None
    )
    app = AccountDeskApp(desk, on_first_frame=StartUp.first_frame)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "embedded"))
