"""The sandbox's ASGI layer: maps :class:`SandboxEngine` onto the wire.

Thin on purpose: each handler reads the bearer token, the path parameters
and (where one is taken) the JSON body, calls one engine operation and
answers its record. Bodies are parsed by hand, so that a bad body is an
``AC-100`` in the contract's envelope and never a 422. The app is plain
Starlette: the handlers take only the request, so FastAPI's per-request
dependency solving would buy nothing (it cost a fifth of the sandbox's time
per request), and importing FastAPI alone took a quarter of a second of every
embedded sign-in (its OpenAPI models; our document is generated from the
contract instead).

Answers the framework would make itself are wrapped in the envelope too:

- unknown route: 404 ``AC-904``; known route, wrong method: 405 ``AC-905``
  (``Allow`` names every method of the path); HEAD is answered as GET;
- unhandled crash: 500 ``AC-950``; a body over 64 KiB: 413 ``AC-913``
  (:class:`~.middleware.SandboxGuard`).

``/openapi.json`` is the document generated from the contract
(:mod:`.openapi`) and ``/docs`` a self-contained page of it
(:mod:`.docs_page`). Trailing-slash redirects are off (``/token/`` is an
unknown route, not a 307).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from accountdesk.contract import ALL_ENDPOINTS, Endpoint
from accountdesk.contract import endpoints as ep
from accountdesk.contract.sandbox_codes import CONTROL_TOKEN_HEADER
from accountdesk.sandbox.clock import wire_time
from accountdesk.sandbox.engine import BODY_TEXT_ENDPOINT, SandboxEngine, SandboxError
from accountdesk.sandbox.errors import spec_of
from accountdesk.sandbox.scenarios import catalogue
from accountdesk.sandbox.wire.middleware import SandboxGuard, segment_value

__all__ = ["CONTROL_TOKEN_HEADER", "build_app"]

#: The header that carries the control token (``serve`` on a non-loopback host).

Handler = Callable[[Request], Awaitable[Response]]


def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _param(request: Request, name: str) -> str:
    return segment_value(request.path_params[name])


async def _json_body(request: Request) -> Any:
    """The decoded JSON body, or None when it is absent or not JSON."""
    raw = await request.body()
    try:
        return json.loads(raw) if raw else None
    # ValueError covers JSONDecodeError, bad UTF-8 and over-long integers;
    # RecursionError a body nested thousands of levels deep.
    except (ValueError, RecursionError):
        return None


def _field(body: Any, name: str) -> Any:
    return body.get(name) if isinstance(body, dict) else None


def _control_token(request: Request) -> str | None:
    return request.headers.get(CONTROL_TOKEN_HEADER)


def _trainee(request: Request) -> str | None:
    """The trainee a trainer's call names (``?trainee=NAME``); "" is a name, never "everyone"."""
    return request.query_params.get("trainee")


def _error_response(
    code: str, endpoint: Endpoint | None, headers: dict[str, str] | None = None
) -> JSONResponse:
    spec = spec_of(code)
    return JSONResponse(
        spec.body_for(endpoint), status_code=spec.status_for(endpoint), headers=headers
    )


def _endpoint_of(request: Request) -> Endpoint:
    """The contract endpoint a request was routed to (for AC-100's two texts)."""
    route_path = getattr(request.scope.get("route"), "path", None)
    for endpoint in ALL_ENDPOINTS:
        if endpoint.path == route_path and endpoint.method == request.method:
            return endpoint
    return BODY_TEXT_ENDPOINT


# -- handlers -------------------------------------------------------------------


def _contract_handlers(engine: SandboxEngine) -> dict[Endpoint, Handler]:
    """One handler per contract endpoint, bound to ``engine``."""

    async def issue_token(request: Request) -> Response:
        body = await _json_body(request)
        grant = engine.issue_token(_field(body, "api_key"), _field(body, "api_secret"))
        return JSONResponse(grant)

    async def get_account(request: Request) -> Response:
        return JSONResponse(engine.get_account(_bearer(request), _param(request, "user_id")))

    async def get_balance(request: Request) -> Response:
        return JSONResponse(engine.get_balance(_bearer(request), _param(request, "user_id")))

    async def refresh_balance(request: Request) -> Response:
        job = engine.refresh_balance(_bearer(request), _param(request, "user_id"))
        return JSONResponse(job, status_code=202)

    async def submit_mfa(request: Request) -> Response:
        body = await _json_body(request)
        job = engine.submit_mfa(
            _bearer(request),
            _param(request, "user_id"),
            _param(request, "job_id"),
            _field(body, "answer"),
        )
        return JSONResponse(job)

    async def resolve_mfa(request: Request) -> Response:
        job = engine.resolve_mfa(
            _bearer(request), _param(request, "user_id"), _param(request, "job_id")
        )
        return JSONResponse(job)

    async def start_identity(request: Request) -> Response:
        job = engine.start_identity(_bearer(request), _param(request, "user_id"))
        return JSONResponse(job, status_code=202)

    async def get_identity(request: Request) -> Response:
        return JSONResponse(engine.get_identity(_bearer(request), _param(request, "user_id")))

    async def start_transactions(request: Request) -> Response:
        job = engine.start_transactions(_bearer(request), _param(request, "user_id"))
        return JSONResponse(job, status_code=202)

    async def get_transactions(request: Request) -> Response:
        # Pieces of JSON bytes, built once per user and streamed as they are
        # built: user_bulk's first rows go out at once (errors come first).
        pieces = engine.transaction_pieces(_bearer(request), _param(request, "user_id"))
        return StreamingResponse(pieces, media_type="application/json")

    async def get_job(request: Request) -> Response:
        job = engine.get_job(
            _bearer(request), _param(request, "user_id"), _param(request, "job_id")
        )
        return JSONResponse(job)

    return {
        ep.TOKEN: issue_token,
        ep.ACCOUNT: get_account,
        ep.BALANCE: get_balance,
        ep.REFRESH: refresh_balance,
        ep.MFA_ANSWER: submit_mfa,
        ep.MFA_RESOLVE: resolve_mfa,
        ep.IDENTITY_START: start_identity,
        ep.IDENTITY_READ: get_identity,
        ep.TRANSACTIONS_START: start_transactions,
        ep.TRANSACTIONS_READ: get_transactions,
        ep.JOB: get_job,
    }


def _control_handlers(engine: SandboxEngine) -> dict[tuple[str, str], Handler]:
    """The ``/_sandbox`` endpoints, bound to ``engine``, keyed by (method, path)."""

    async def list_scenarios(request: Request) -> Response:
        return JSONResponse(catalogue(engine.scenarios, engine.scenario_set.credentials))

    async def reset(request: Request) -> Response:
        engine.reset(_bearer(request), _control_token(request), trainee=_trainee(request))
        return JSONResponse({"reset": True})

    async def list_trainees(request: Request) -> Response:
        return JSONResponse(engine.trainees(_control_token(request)))

    async def read_clock(request: Request) -> Response:
        return JSONResponse({"now": wire_time(engine.clock_now(_bearer(request)))})

    async def advance_clock(request: Request) -> Response:
        body = await _json_body(request)
        now = engine.advance_clock(
            _field(body, "seconds"),
            _bearer(request),
            _control_token(request),
            trainee=_trainee(request),
        )
        return JSONResponse({"now": wire_time(now)})

    return {
        ("GET", "/_sandbox/scenarios"): list_scenarios,
        ("GET", "/_sandbox/trainees"): list_trainees,
        ("POST", "/_sandbox/reset"): reset,
        ("GET", "/_sandbox/clock"): read_clock,
        ("POST", "/_sandbox/clock/advance"): advance_clock,
    }


def _document_handlers() -> dict[tuple[str, str], Handler]:
    """``/openapi.json`` and ``/docs``, rendered once, on the first request for either.

    Not when the app is built: the embedded sandbox never serves them, and
    building them (13-14 ms) came with every embedded sign-in.
    """

    @cache
    def rendered() -> tuple[bytes, bytes]:
        from accountdesk.sandbox.wire.docs_page import docs_html
        from accountdesk.sandbox.wire.openapi import openapi_document

        document = openapi_document()
        return json.dumps(document, ensure_ascii=False).encode(), docs_html(document).encode()

    async def openapi_json(request: Request) -> Response:
        return Response(rendered()[0], media_type="application/json")

    async def docs(request: Request) -> Response:
        from accountdesk.sandbox.wire.docs_page import CONTENT_SECURITY_POLICY

        headers = {"Content-Security-Policy": CONTENT_SECURITY_POLICY}
        return Response(rendered()[1], media_type="text/html; charset=utf-8", headers=headers)

    return {("GET", "/openapi.json"): openapi_json, ("GET", "/docs"): docs}


# -- error handlers -------------------------------------------------------------


async def _on_sandbox_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SandboxError)
    headers = None
    if exc.retry_after is not None:
        # AC-108: when the block lifts, in whole seconds (RFC 9110 delta-seconds).
        headers = {"Retry-After": str(exc.retry_after)}
    return JSONResponse(exc.body, status_code=exc.status, headers=headers)


async def _on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    headers = dict(exc.headers) if exc.headers else None
    if exc.status_code == 404:
        return _error_response("AC-904", None)
    if exc.status_code == 405:
        return _error_response("AC-905", None, {**(headers or {}), "Allow": _allowed(request)})
    if exc.status_code in (400, 422):
        return _error_response("AC-100", _endpoint_of(request))
    return _error_response("AC-950", None)


def _route(path: str, method: str, handler: Handler, name: str | None = None) -> Route:
    # Starlette adds HEAD to a GET route: answered as GET, without the body
    # (RFC 9110 9.3.2; the body is dropped by SandboxGuard).
    return Route(path, handler, methods=[method], name=name)


def _allowed(request: Request) -> str:
    """Every method of the request's path, across all its routes (GET, HEAD, POST...).

    Starlette's 405 names the methods of the first route whose path matched,
    so ``/accounts/{user_id}/identity`` said ``Allow: POST`` though GET is
    served there too.
    """
    methods: set[str] = set()
    for route in request.app.routes:
        if (
            isinstance(route, Route)
            and route.methods
            and route.path_regex.match(request.scope["path"])
        ):
            methods |= route.methods
    return ", ".join(sorted(methods))


def build_app(engine: SandboxEngine) -> Starlette:
    """A Starlette app serving ``engine``; see :func:`accountdesk.sandbox.create_app`."""
    # Routes are added in the contract's order; a path is written once, in
    # accountdesk.contract.endpoints.
    routes = [
        _route(endpoint.path, endpoint.method, handler, endpoint.name)
        for endpoint, handler in _contract_handlers(engine).items()
    ]
    routes += [
        _route(path, method, handler)
        for (method, path), handler in {
            **_control_handlers(engine),
            **_document_handlers(),
        }.items()
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            SandboxError: _on_sandbox_error,
            StarletteHTTPException: _on_http_error,
        },
        # Outermost: crashes anywhere inside, routing included, still answer the envelope.
        middleware=[Middleware(SandboxGuard)],
    )
    app.router.redirect_slashes = False
    app.state.engine = engine
    app.state.clock = engine.clock
    return app
