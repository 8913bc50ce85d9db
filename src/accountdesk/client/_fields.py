"""Field types of the records: service data checked and made inert as it is parsed.

- :data:`ServiceText`: any text the service sends that a UI may show;
  sanitised (:func:`~accountdesk.client.sanitise_text`) and cut to 2,000
  characters.
- :data:`ServiceId`: an identifier the client may send back in a path;
  refused (never altered) when unusable.
- :data:`ServiceSecret`: an account or routing number: sanitised, then kept
  as ``SecretStr``.
- :data:`Amount`: a bounded ``Decimal``.
- :data:`TextList`: at most 100 :data:`ServiceText` items.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, PlainValidator, SecretStr
from pydantic_core import PydanticCustomError

from accountdesk.client._bounds import MAX_LIST_ITEMS, amount_from_wire, service_id_problem
from accountdesk.client._sanitise import service_text

__all__ = ["Amount", "ServiceId", "ServiceSecret", "ServiceText", "TextList"]


def _id(value: str) -> str:
    problem = service_id_problem(value)
    if problem is not None:
        raise PydanticCustomError("service_id", problem)
    return value


def _amount(value: Any) -> Decimal:
    try:
        return amount_from_wire(value)
    except ValueError as exc:
        raise PydanticCustomError("amount", str(exc)) from None


def _inert_before_secret(value: Any) -> Any:
    return service_text(value) if isinstance(value, str) else value


ServiceText = Annotated[str, AfterValidator(service_text)]
ServiceId = Annotated[str, AfterValidator(_id)]
ServiceSecret = Annotated[SecretStr, BeforeValidator(_inert_before_secret)]
Amount = Annotated[Decimal, PlainValidator(_amount)]
TextList = Annotated[list[ServiceText], Field(max_length=MAX_LIST_ITEMS)]
