"""``GET /docs``: the OpenAPI document as one self-contained HTML page.

Rendered on the server from :func:`~.openapi.openapi_document`: no script at
all, no CDN, no font or style from the network, so it works offline (a
training room) and its content security policy can forbid everything but
the inline style. Every text from the document is escaped. Standard library
only.
"""

from __future__ import annotations

import html
import json
from typing import Any

__all__ = ["CONTENT_SECURITY_POLICY", "docs_html"]

#: Sent with the page: nothing may load, nothing may run.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem 2rem;
       color: #1d232a; }
h1 { margin-bottom: .2rem; } h2 { border-bottom: 2px solid #d0d7de; padding-bottom: .2rem; }
.op { border: 1px solid #d0d7de; border-radius: 6px; margin: 1rem 0; padding: .4rem 1rem; }
.method { display: inline-block; min-width: 4rem; font-weight: bold; color: #fff;
          border-radius: 4px; text-align: center; padding: 0 .4rem; }
.get { background: #1f6feb; } .post { background: #1a7f37; }
code, pre { font-family: ui-monospace, monospace; font-size: 13px; }
pre { background: #f6f8fa; padding: .5rem; overflow-x: auto; margin: .2rem 0; }
table { border-collapse: collapse; width: 100%; } td, th { text-align: left; vertical-align: top;
        border-top: 1px solid #eaeef2; padding: .3rem .5rem; }
.muted { color: #57606a; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _schema_name(schema: dict[str, Any]) -> str:
    ref = schema.get("$ref") or next(
        (part.get("$ref") for part in schema.get("allOf", []) if "$ref" in part), ""
    )
    return ref.rsplit("/", 1)[-1] if ref else "object"


def _operation(method: str, path: str, operation: dict[str, Any]) -> str:
    rows = []
    for status, response in operation["responses"].items():
        content = response.get("content", {}).get("application/json", {})
        examples = content.get("examples", {})
        shown = "".join(
            f"<pre>{_e(json.dumps(example['value'], ensure_ascii=False))}</pre>"
            for example in examples.values()
        )
        links = ", ".join(_e(name) for name in response.get("links", {}))
        rows.append(
            f"<tr><td><code>{_e(status)}</code></td><td>{_e(response['description'])}"
            f"<div class='muted'>{_e(_schema_name(content.get('schema', {})))}"
            f"{' · links: ' + links if links else ''}</div>{shown}</td></tr>"
        )
    body = operation.get("requestBody")
    body_line = ""
    if body:
        schema = body["content"]["application/json"]["schema"]
        body_line = f"<p>Body: <code>{_e(_schema_name(schema))}</code> (JSON)</p>"
    return (
        f"<div class='op' id='{_e(operation['operationId'])}'>"
        f"<p><span class='method {_e(method)}'>{_e(method.upper())}</span> "
        f"<code>{_e(path)}</code> {_e(operation['summary'])}</p>{body_line}"
        f"<table><tr><th>Status</th><th>Answer</th></tr>{''.join(rows)}</table></div>"
    )


def _schemas(schemas: dict[str, Any]) -> str:
    return "".join(
        f"<h3 id='schema-{_e(name)}'>{_e(name)}</h3>"
        f"<pre>{_e(json.dumps(schema, indent=2, ensure_ascii=False))}</pre>"
        for name, schema in schemas.items()
    )


def docs_html(document: dict[str, Any]) -> str:
    """The page for ``document`` (an OpenAPI 3.1 dict)."""
    info = document["info"]
    sections = []
    for tag in document["tags"]:
        operations = [
            _operation(method, path, operation)
            for path, methods in document["paths"].items()
            for method, operation in methods.items()
            if tag["name"] in operation["tags"]
        ]
        sections.append(f"<h2>{_e(tag['name'])}</h2>{''.join(operations)}")
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{_e(info['title'])}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{_e(info['title'])}</h1><p class='muted'>Version {_e(info['version'])} · "
        "OpenAPI 3.1 · <a href='/openapi.json'>openapi.json</a></p>"
        f"<pre>{_e(info['description'])}</pre>{''.join(sections)}"
        f"<h2>Schemas</h2>{_schemas(document['components']['schemas'])}</body></html>"
    )
