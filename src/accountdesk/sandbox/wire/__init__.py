"""The sandbox on the wire: the thin layer that maps the engine onto HTTP.

- :mod:`.api`: the Starlette routes, each a call of the engine
  (:class:`~accountdesk.sandbox.engine.SandboxEngine`) and its answer as JSON;
- :mod:`.middleware`: the one ASGI middleware (raw-path routing, the body
  limit, the crash envelope);
- :mod:`.embedded`: the app served in-process to the dashboard, on an event
  loop of its own, as an httpx transport;
- :mod:`.serving`: the app served over HTTP by uvicorn, bounded against slow,
  idle and too many clients;
- :mod:`.openapi` and :mod:`.openapi_schemas`: the OpenAPI document of what
  goes over the wire, and :mod:`.docs_page` its ``GET /docs`` page (these
  three import no web framework either).

The engine's modules import none of these.
"""
