"""The one exception the sandbox's engine raises: a catalogue code.

The envelope itself is never written here: :attr:`SandboxError.body` is the
catalogue's :meth:`~accountdesk.contract.ErrorSpec.body_for`, the one place
that builds it. Knows nothing of HTTP: the ASGI layer turns ``status`` and
``retry_after`` into a response.
"""

from __future__ import annotations

from accountdesk.contract import ERRORS, SANDBOX_CODES, Endpoint, ErrorSpec

__all__ = ["SandboxError", "spec_of"]


def spec_of(code: str) -> ErrorSpec:
    """The catalogue row of a service code or of one of the sandbox's own codes."""
    return ERRORS.get(code) or SANDBOX_CODES[code]


class SandboxError(Exception):
    """A service error: a catalogue code, answered as the error envelope.

    ``retry_after`` is set on ``AC-108``: the whole seconds until the block
    lifts (sent as ``Retry-After``).
    """

    def __init__(
        self,
        code: str,
        endpoint: Endpoint | None = None,
        *,
        user_id: str = "",
        job_id: str = "",
        retry_after: int | None = None,
    ) -> None:
        self.spec = spec_of(code)
        self.code = code
        self.endpoint = endpoint
        self.user_id = user_id
        self.job_id = job_id
        self.retry_after = retry_after
        self.status = self.spec.status_for(endpoint)
        super().__init__(f"{code} {self.status}: {self.message}")

    @property
    def body(self) -> dict[str, dict[str, str]]:
        """The error envelope of contract section 2, from the catalogue."""
        return self.spec.body_for(self.endpoint, user_id=self.user_id, job_id=self.job_id)

    @property
    def message(self) -> str:
        """The message text as sent."""
        return self.body["error"]["message"]
