"""What goes on the wire and comes back: request bodies, answers, deadlines, the size cap.

Nothing here holds a credential as plain text in a variable: a request body
is a :class:`JsonBody` and an answer an :class:`Answer`, both with reprs
that show no content, because a crash report drawn with local variables
(Textual's, for one) shows every frame's locals.
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import httpx
from pydantic import SecretStr

from accountdesk.client.errors import MalformedResponseError

__all__ = [
    "Answer",
    "Deadline",
    "JsonBody",
    "OpenAnswer",
    "ResponseTooLargeError",
    "StreamTooLargeError",
    "cut_frames",
    "read_capped",
]


class ResponseTooLargeError(MalformedResponseError):
    """The answer's body is larger than the client's ``max_response_bytes`` (decoded).

    The connection was closed without reading the rest.
    """

    title = "Answer too large"


class StreamTooLargeError(ResponseTooLargeError):
    """A streamed answer stopped at the client's size cap, part way.

    As with :class:`~accountdesk.client.StreamInterruptedError`, the batches
    before it were handed out and stay good (every whole row that arrived
    within the cap); ``rows`` says how many, ``received`` how many bytes of
    the body were read.
    """

    def __init__(
        self, status: int, problem: str, *, rows: int, received: int, method: str, path: str
    ) -> None:
        kept = f"{problem} after {rows:,} rows ({received:,} bytes); the rows before are kept"
        super().__init__(status, "", problem=kept, method=method, path=path)
        self.rows = rows
        self.received = received


class JsonBody:
    """A JSON request body whose values may be secrets; its repr names only the fields."""

    __slots__ = ("_fields",)

    def __init__(self, **fields: str | SecretStr | float | bool | None) -> None:
        self._fields = fields

    def encode(self) -> bytes:
        """The body as ASCII JSON (a lone surrogate becomes a valid ``\\ud800`` escape)."""
        return json.dumps(
            {
                name: value.get_secret_value() if isinstance(value, SecretStr) else value
                for name, value in self._fields.items()
            },
            allow_nan=False,
        ).encode("ascii")

    def __repr__(self) -> str:
        return f"<JsonBody: {', '.join(self._fields)}>"


class _Buffer:
    """Collects body bytes; its repr shows only the size."""

    __slots__ = ("_parts", "size")

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self.size = 0

    def add(self, chunk: bytes) -> None:
        self._parts.append(chunk)
        self.size += len(chunk)

    def take(self) -> bytes:
        return b"".join(self._parts)

    def __repr__(self) -> str:
        return f"<body: {self.size} bytes>"


class Answer:
    """A complete answer: status, headers and the decoded body. The repr hides the body."""

    __slots__ = ("_content", "headers", "status_code")

    def __init__(self, status_code: int, headers: httpx.Headers, content: bytes) -> None:
        self.status_code = status_code
        self.headers = headers
        self._content = content

    @property
    def content(self) -> bytes:
        """The decoded body; may hold a token (``POST /token``): never log it."""
        return self._content

    @property
    def is_success(self) -> bool:
        return 200 <= self.status_code < 300

    def __repr__(self) -> str:
        return f"<Answer {self.status_code}: {len(self._content)} bytes>"


class OpenAnswer(Answer):
    """A 2xx answer whose body is still on the wire: ``response`` to read, then close."""

    __slots__ = ("response",)

    def __init__(self, response: httpx.Response) -> None:
        super().__init__(response.status_code, response.headers, b"")
        self.response = response

    def __repr__(self) -> str:
        return f"<OpenAnswer {self.status_code}>"


async def read_capped(
    response: httpx.Response, limit: int, describe: Callable[[], tuple[str, str]]
) -> bytes:
    """The decoded body of a streamed ``response``; :class:`ResponseTooLargeError` past ``limit``.

    ``Content-Length`` over the limit is refused before reading. The caller
    closes the response. ``describe`` gives (method, path) for the error.
    """
    if too_large_declared(response, limit):
        raise too_large(response.status_code, limit, describe)
    buffer = _Buffer()
    chunks = response.aiter_bytes()
    # No loop variable: a chunk of a token answer must not sit in a local
    # while the next read can fail.
    while True:
        try:
            buffer.add(await anext(chunks))
        except StopAsyncIteration:
            break
        if buffer.size > limit:
            raise too_large(response.status_code, limit, describe)
    return buffer.take()


def too_large_declared(response: httpx.Response, limit: int) -> bool:
    """Whether ``response`` says (``Content-Length``, not encoded) it is larger than ``limit``."""
    declared = response.headers.get("Content-Length", "")
    encoded = response.headers.get("Content-Encoding", "identity") != "identity"
    return declared.isdigit() and not encoded and int(declared) > limit


def too_large(
    status: int, limit: int, describe: Callable[[], tuple[str, str]]
) -> ResponseTooLargeError:
    method, path = describe()
    return ResponseTooLargeError(
        status, "", problem=too_large_problem(limit), method=method, path=path
    )


def too_large_problem(limit: int) -> str:
    return f"the answer is larger than {_size(limit)} (the client's max_response_bytes)"


def _size(count: int) -> str:
    if count >= 2**20 and count % 2**20 == 0:
        return f"{count // 2**20} MiB"
    if count >= 1024 and count % 1024 == 0:
        return f"{count // 1024} KiB"
    return f"{count} bytes"


def cut_frames(exc: BaseException, here: types.TracebackType | None) -> None:
    """Drop the frames below ``here`` from ``exc`` and every traceback of its chain.

    Frames inside httpx, httpcore and h11 hold request headers and body
    chunks (a token, the token answer) in their locals; a crash report drawn
    with locals would show them. Types and messages are kept.
    """
    if here is not None:
        here.tb_next = None
    seen = {id(exc)}
    linked = exc.__cause__ or exc.__context__
    while linked is not None and id(linked) not in seen:
        seen.add(id(linked))
        linked.__traceback__ = None
        linked = linked.__cause__ or linked.__context__


@dataclass(frozen=True, slots=True)
class Deadline:
    """The moment a call must be over, on the client's monotonic clock."""

    at: float
    total: float
    clock: Callable[[], float]

    @classmethod
    def after(cls, seconds: float, clock: Callable[[], float]) -> Deadline:
        return cls(clock() + seconds, seconds, clock)

    def remaining(self) -> float:
        return self.at - self.clock()


def merged_headers(
    authorization: SecretStr | None,
    body: JsonBody | None,
    extra: Mapping[str, str | SecretStr] | None,
) -> dict[str, str] | None:
    """The headers of one attempt. Built in an expression by the caller, never kept."""
    if authorization is None and body is None and not extra:
        return None
    headers = {
        name: value.get_secret_value() if isinstance(value, SecretStr) else value
        for name, value in (extra or {}).items()
    }
    if body is not None:
        headers["Content-Type"] = "application/json"
    if authorization is not None:
        headers["Authorization"] = authorization.get_secret_value()
    return headers
