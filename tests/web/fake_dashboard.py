"""A stand-in for the dashboard in web-mode tests: speaks the Textual web driver's protocol.

It says what it was started with (process id, data folder, which credential
variables it inherited, its arguments) in its first output packet, then
echoes every packet the server sends it. A "quit" message ends it, unless
``--ignore-quit`` was given (a dashboard that hangs).
"""

from __future__ import annotations

import json
import os
import sys


def packet(kind: bytes, message: object) -> None:
    payload = json.dumps(message).encode()
    sys.stdout.buffer.write(kind + len(payload).to_bytes(4, "big") + payload)
    sys.stdout.buffer.flush()


def main() -> None:
    sys.stdout.buffer.write(b"__GANGLION__\n")
    packet(
        b"D",
        {
            "pid": os.getpid(),
            "data_dir": os.environ.get("ACCOUNTDESK_DATA_DIR"),
            "inherited": sorted(name for name in os.environ if name.startswith("ACCOUNTDESK_")),
            "size": [os.environ.get("COLUMNS"), os.environ.get("ROWS")],
            "argv": sys.argv[1:],
        },
    )
    ignore_quit = "--ignore-quit" in sys.argv
    stdin = sys.stdin.buffer
    while len(head := stdin.read(5)) == 5:
        payload = stdin.read(int.from_bytes(head[1:], "big"))
        if head[:1] == b"M":
            meta = json.loads(payload)
            packet(b"D", {"meta": meta})
            if meta.get("type") == "quit" and not ignore_quit:
                packet(b"M", {"type": "exit"})
                return
        else:
            packet(b"D", {"stdin": payload.decode()})


if __name__ == "__main__":
    main()
