"""The one exception the sandbox's engine raises: a catalogue code.

The envelope itself is never written here: :attr:`SandboxError.body` is the
catalogue's :meth:`~accountdesk.contract.ErrorSpec.body_for`, the one place
that builds it. Knows nothing of HTTP: the ASGI layer turns ``status`` and
``retry_after`` into a response.
"""

from __future__ import annotations

from accountdesk.contract import ERRORS, SANDBOX_CODES, Endpoint, ErrorSpec, known_spec

__all__ = ["SandboxError", "known_spec", "spec_of"]


def spec_of(code: str) -> ErrorSpec:
    """The catalogue row of a service code or of one of the sandbox's own codes."""
    return ERRORS.get(code) or SANDBOX_CODES[code]


class SandboxError(Exception):
    """A service error: a catalogue code, answered as the error envelope.

    ``retry_after`` is set on ``AC-108``: the whole seconds until the block
    lifts (sent as ``Retry-After``). ``status`` and ``message`` answer what a
    scenario pack says instead of the catalogue's (sent verbatim); a code the
    catalogue does not know (a pack's ``AC-777``) needs both.
    """

    def __init__(
        self,
        code: str,
        endpoint: Endpoint | None = None,
        *,
        user_id: str = "",
        job_id: str = "",
        retry_after: int | None = None,
        status: int | None = None,
        message: str | None = None,
    ) -> None:
        spec = known_spec(code)
        if spec is None and (status is None or message is None):
            raise ValueError(f"{code} is not a known code: give its status and message")
        self.spec = spec
        self.code = code
        self.endpoint = endpoint
        self.user_id = user_id
        self.job_id = job_id
        self.retry_after = retry_after
        self._message = message
        self.status = status if status is not None else spec.status_for(endpoint)  # type: ignore[union-attr]
        super().__init__(f"{code} {self.status}: {self.message}")

    @property
    def body(self) -> dict[str, dict[str, str]]:
        """The error envelope of contract section 2, from the catalogue (or as a pack says)."""
        if self._message is not None or self.spec is None:
            return {"error": {"code": self.code, "message": self._message or ""}}
        return self.spec.body_for(self.endpoint, user_id=self.user_id, job_id=self.job_id)

    @property
    def message(self) -> str:
        """The message text as sent."""
        return self.body["error"]["message"]
