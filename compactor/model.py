"""The request as typed values: messages and parameters."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, TypeVar

from compactor.contract import CONTRACT_LIMITS, DEFAULTS

T = TypeVar("T")


def writer(cls: type[T]) -> Callable[..., T]:
    """A constructor of the frozen dataclass ``cls`` that takes every field positionally and
    writes them straight into the new instance: what ``cls(*values)`` makes (equal, same hash
    and repr) at about half the cost of a frozen ``__init__``, which sets each field through
    ``object.__setattr__``; for records made by the thousand (a whole session's messages).
    ``cls`` must be a dataclass without slots, ``__post_init__`` or fields left out of
    ``__init__``."""
    given = fields(cls)  # type: ignore[arg-type]
    names = [f.name for f in given]
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} needs its own __init__")
    if any(not f.init for f in given):
        raise TypeError(f"{cls.__name__} has a field __init__ does not take")
    if {"new", "cls", "o", "d"} & set(names):
        raise TypeError(f"{cls.__name__} has a field named as the constructor's own names")
    stores = "".join(f"    d[{name!r}] = {name}\n" for name in names)
    head = f"def make({', '.join(names)}):\n    o = new(cls)\n    d = o.__dict__\n"
    source = f"{head}{stores}    return o\n"
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec(source, scope)  # the names are the dataclass' own fields
    make = scope["make"]
    make.__doc__ = f"{cls.__name__}(*values), made faster."
    return make


@dataclass(frozen=True)
class Message:
    """One input message, named by its 0-based position in the history."""

    index: int
    role: str
    content: str
    id: str | None = None
    pin: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The message as the request carries it (``pin`` only when true)."""
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.id is not None:
            out["id"] = self.id
        if self.pin:
            out["pin"] = True
        return out


@dataclass(frozen=True)
class Params:
    """The compaction parameters, with the schema's defaults."""

    budget_chars: int
    keep_last_n: int = DEFAULTS["keep_last_n"]
    keep_roles: tuple[str, ...] = tuple(DEFAULTS["keep_roles"])
    duplicate_threshold: float = DEFAULTS["duplicate_threshold"]
    max_message_chars: int = DEFAULTS["max_message_chars"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget_chars": self.budget_chars,
            "keep_last_n": self.keep_last_n,
            "keep_roles": list(self.keep_roles),
            "duplicate_threshold": self.duplicate_threshold,
            "max_message_chars": self.max_message_chars,
        }


_message = writer(Message)  # a whole session makes thousands


@dataclass(frozen=True)
class Request:
    """A valid request: the history, oldest first, and the parameters.

    ``limits`` names the mode it was validated in (:data:`~compactor.contract.LIMIT_MODES`):
    ``"contract"``, the catalog's schema, or ``"agent"``, a whole agent session. The analyses
    read it for the budgets they may range over; the four stages do not read it.

    Besides ``messages``, each field of the messages is kept as a column (``contents``,
    ``roles``, ``ids``, ``pins``), which the stages and the response read. A request made by
    :meth:`of_columns` (as :func:`~compactor.input.validate` makes it) makes its ``messages``
    when they are first read: ``compact`` on a whole session of tiny messages never reads them.
    """

    messages: tuple[Message, ...]
    params: Params
    limits: str = CONTRACT_LIMITS
    contents: tuple[str, ...] = field(init=False, repr=False, compare=False)
    roles: tuple[str, ...] = field(init=False, repr=False, compare=False)
    ids: tuple[str | None, ...] = field(init=False, repr=False, compare=False)
    pins: tuple[bool, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        messages = self.messages
        object.__setattr__(self, "contents", tuple(map(attrgetter("content"), messages)))
        object.__setattr__(self, "roles", tuple(map(attrgetter("role"), messages)))
        object.__setattr__(self, "ids", tuple(map(attrgetter("id"), messages)))
        object.__setattr__(self, "pins", tuple(map(attrgetter("pin"), messages)))

    @classmethod
    def of_columns(
        cls,
        roles: tuple[str, ...],
        contents: tuple[str, ...],
        ids: tuple[str | None, ...],
        pins: tuple[bool, ...],
        params: Params,
        limits: str = CONTRACT_LIMITS,
    ) -> Request:
        """The request whose messages have these columns (of one length): equal to
        ``Request(messages, params, limits)`` of the same messages, which are made when first
        read."""
        if not len(roles) == len(contents) == len(ids) == len(pins):
            raise ValueError("Request.of_columns: the columns differ in length")
        request = object.__new__(cls)
        request.__dict__.update(
            params=params, limits=limits, contents=contents, roles=roles, ids=ids, pins=pins
        )
        return request

    def __getattr__(self, name: str) -> Any:
        # only called for an attribute not set: the messages of a request made of columns
        known = self.__dict__
        if name != "messages" or "contents" not in known:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        contents = known["contents"]
        made = tuple(
            map(
                _message,
                range(len(contents)),
                known["roles"],
                contents,
                known["ids"],
                known["pins"],
            )
        )
        known["messages"] = made
        return made

    def to_dict(self) -> dict[str, Any]:
        """The request as JSON, every parameter spelled out."""
        return {"messages": [m.to_dict() for m in self.messages], **self.params.to_dict()}
