"""``accountdesk explain [CODE]``: what an error means and what support should do next.

Every word comes from the contract (the catalogue's message, condition and
guidance; the guidance for failures without a code), which is standard
library only: the command starts at once and works with the client-only
install. Output is plain text wrapped for an 80-column terminal.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING, Any, TextIO

from accountdesk.cli.output import inert
from accountdesk.contract import (
    ENDPOINT_ERRORS,
    ERRORS,
    FAILURE_GUIDANCE,
    SANDBOX_CODES,
    UNLISTED_CODES,
    ErrorSpec,
    FailureKind,
    endpoint_named,
    known_spec,
)

if TYPE_CHECKING:
    import argparse

    from accountdesk.cli.startup import StartUp

__all__ = ["add_parser", "explain", "explain_code", "explain_failure", "list_codes", "run"]

#: Widest output, whatever the terminal: long lines are hard to read.
MAX_WIDTH = 80
#: How much of an unknown code the error line repeats.
_ECHOED = 40
_INDENT = "  "


def _wrap(text: str, width: int, indent: str = _INDENT, first: str | None = None) -> list[str]:
    return textwrap.wrap(
        text,
        width=width,
        initial_indent=indent if first is None else first,
        subsequent_indent=indent,
        break_on_hyphens=False,
    )


def _row(left: str, text: str, width: int) -> list[str]:
    """``left`` then ``text`` wrapped in a column beside it."""
    return _wrap(text, width, " " * len(left), first=left) or [left.rstrip()]


# -- the list ------------------------------------------------------------------------


def list_codes(width: int = MAX_WIDTH) -> list[str]:
    """Every code and failure kind, one short line (wrapped) each."""
    lines = ["Codes of the Account Data Service (accountdesk explain CODE tells more):", ""]
    for spec in ERRORS.values():
        lines += _row(f"  {spec.code}  {spec.status}  ", spec.condition, width)
    lines += ["", "Codes outside the contract's tables:", ""]
    for spec in UNLISTED_CODES.values():
        lines += _row(f"  {spec.code}  ---  ", spec.condition, width)
    lines += ["", "The sandbox's own codes (never from a real service):", ""]
    for spec in SANDBOX_CODES.values():
        lines += _row(f"  {spec.code}  {spec.status}  ", spec.condition, width)
    lines += ["", "Failures without a code (accountdesk explain KIND):", ""]
    column = max(len(kind) for kind in FailureKind) + 4
    for kind, guidance in FAILURE_GUIDANCE.items():
        first_sentence = guidance.meaning.split(". ")[0].rstrip(".") + "."
        lines += _row(f"  {kind}".ljust(column), first_sentence, width)
    return lines


# -- one code ----------------------------------------------------------------------------


def _endpoints_of(code: str) -> list[str]:
    return [str(endpoint_named(name)) for name, codes in ENDPOINT_ERRORS.items() if code in codes]


def _status_text(spec: ErrorSpec) -> str:
    if spec.code in UNLISTED_CODES:
        return "status not shown"
    exceptions = [
        f"{status} on {endpoint_named(name)}" for name, status in spec.status_by_endpoint.items()
    ]
    return f"{spec.status} ({', '.join(exceptions)})" if exceptions else str(spec.status)


def _messages(spec: ErrorSpec) -> list[tuple[str, str]]:
    """``(where, text)`` of each message the code is sent with; placeholders kept in braces."""
    keep = {"user_id": "{user_id}", "job_id": "{job_id}"}
    if not spec.message_by_endpoint:
        return [("", spec.message_for(None, **keep))]
    special = [
        (f"On {endpoint}", spec.message_for(endpoint, **keep))
        for endpoint in map(endpoint_named, spec.message_by_endpoint)
    ]
    return [*special, ("On the other endpoints", spec.message_for(None, **keep))]


def explain_code(spec: ErrorSpec, width: int = MAX_WIDTH) -> list[str]:
    """Everything we know about one code: status, message, endpoints, meaning, next step."""
    lines = _wrap(f"{spec.code} ({_status_text(spec)}): {spec.condition}", width, "")
    whose = "the sandbox's" if spec.code in SANDBOX_CODES else "the service's"
    lines += ["", f"Message ({whose} words):"]
    for where, message in _messages(spec):
        quoted = f'"{message}"'
        lines += _wrap(f"{where}: {quoted}" if where else quoted, width)
    lines += ["", "Answered by:"]
    if spec.code in SANDBOX_CODES:
        lines += _wrap("any endpoint of the sandbox (its own answer, not the service's)", width)
    else:
        found = _endpoints_of(spec.code)
        lines += [_INDENT + name for name in found] or _wrap(
            "no endpoint table of the contract lists it", width
        )
    lines += ["", "Meaning:", *_wrap(spec.meaning, width)]
    lines += ["", "Next step:", *_wrap(spec.next_step, width)]
    return lines


def explain_failure(kind: FailureKind, width: int = MAX_WIDTH) -> list[str]:
    """The guidance for a failure without a code."""
    guidance = FAILURE_GUIDANCE[kind]
    return [
        f"{kind}: a failure without a code (the app never invents one)",
        "",
        "Meaning:",
        *_wrap(guidance.meaning, width),
        "",
        "Next step:",
        *_wrap(guidance.next_step, width),
    ]


#: A code as people type or paste it: ``AC-108``, ``ac108``, ``AC 108``, ``108``, or
#: with the hyphen a ticket, a mail or a web page put there (non-breaking, en dash).
_CODE = re.compile(r"(?:ac)?[\s_\-\u2010-\u2015]*(\d{3})", re.IGNORECASE)


def _normalise(code: str) -> str:
    code = code.strip()
    if (typed := _CODE.fullmatch(code)) is not None:
        return f"AC-{typed.group(1)}"
    # A failure kind: ``still-running``, typed ``still_running`` or ``Still running``.
    return re.sub(r"[\s_]+", "-", code.lower())


def explain(
    code: str | None = None,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
    width: int | None = None,
) -> int:
    """Print the list (no ``code``) or one code's explanation; the exit status (2: unknown)."""
    out = out or sys.stdout
    err = err or sys.stderr
    if width is None:
        width = min(shutil.get_terminal_size((MAX_WIDTH, 24)).columns, MAX_WIDTH)
    if code is None:
        lines = list_codes(width)
    else:
        name = _normalise(code)
        spec = known_spec(name)
        if spec is not None:
            lines = explain_code(spec, width)
        elif name in {kind.value for kind in FailureKind}:
            lines = explain_failure(FailureKind(name), width)
        else:
            # Cut: a paste gone wrong is echoed in one line, not a screenful.
            shown = code if len(code) <= _ECHOED else code[:_ECHOED] + "…"
            print(
                inert(
                    f"accountdesk: explain: {shown!r} is not a code accountdesk knows "
                    "(accountdesk explain lists them)"
                ),
                file=err,
            )
            return 2
    try:
        print(inert("\n".join(lines)), file=out)
        out.flush()
    except BrokenPipeError:
        # The reader left early (`accountdesk explain | head`): not a crash. As
        # Python's documentation advises, point stdout at /dev/null so the
        # flush at exit does not fail again.
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


def add_parser(commands: Any, help: str) -> None:
    """The ``explain`` command's flags."""
    explain = commands.add_parser(
        "explain",
        help=help,
        description="Explain an AC- code (or a failure without one, such as timeout): "
        "the service's message, what it means and what support should do next. "
        "Without a code, list them all.",
    )
    explain.add_argument("code", nargs="?", help="AC-nnn, nnn, or a failure kind")


def run(args: argparse.Namespace, start_up: StartUp) -> int:
    """Explain ``args.code`` (or list every code); the exit status."""
    return explain(args.code)
