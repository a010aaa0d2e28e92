"""One provider call's HTTP client: its attempts counted, its answer's size bounded, no redirect.

The official client libraries send each call through an ``httpx`` (or ``httpx2``) async client;
the one :func:`bounded_client` builds is theirs (``sdk.DefaultAsyncHttpxClient``) with three
changes: every attempt the library sends is counted (so an error says "2 attempts" only after
two), every answer is read with a size limit (a declared ``Content-Length`` over it is refused
before any of the body is read; otherwise the body is counted as it arrives, decoded),
redirects are not followed (a key header must not go to another host), and an error whose
``Retry-After`` (or ``retry-after-ms``) asks for a wait past the call's deadline is marked
``x-should-retry: false``, which both libraries obey: it is reported at once, as what it is (a
429, a 503), where the library would sleep the wait (``anthropic`` sleeps any) until the
deadline ended the call as a timeout. An answer over the limit
raises :class:`AnswerTooLarge`, a ``BaseException``, so that the library neither retries it nor
wraps it in its own error; :meth:`Provider.acomplete` turns it into a clear error.

The deadline of the whole call is not here: it is ``asyncio.timeout`` around the library's call,
which cancels whatever the call is waiting for (a connection, a trickling answer, a retry's
sleep) and so closes its connection. :func:`run_sync` runs such a call from synchronous code.
"""

from __future__ import annotations

import asyncio
import email.utils
import functools
import math
import ssl
import threading
import time
from collections.abc import Coroutine
from types import ModuleType
from typing import Any, TypeVar

T = TypeVar("T")
#: Headers that describe the body as it was sent, not as it is handed on (decoded, whole).
_FRAMING = {"content-encoding", "content-length", "transfer-encoding"}


class AnswerTooLarge(BaseException):
    """An answer over the size limit; ``declared`` is its Content-Length when it had one."""

    def __init__(self, declared: int | None):
        super().__init__(declared)
        self.declared = declared


class Attempts:
    """The HTTP requests one call has sent so far."""

    def __init__(self) -> None:
        self.count = 0

    def __str__(self) -> str:
        return f"{self.count} attempt{'' if self.count == 1 else 's'}"


def bounded_client(
    sdk: ModuleType,
    *,
    limit: int,
    attempts: Attempts,
    timeout: Any,
    verify: ssl.SSLContext,
    deadline: float | None = None,
) -> Any:
    """The library's async HTTP client for one call: attempts counted, answers of at most
    ``limit`` bytes, redirects not followed, no retry asked for past ``deadline`` (the event
    loop's time by which the call ends)."""
    client = _bounded_class(sdk.DefaultAsyncHttpxClient)(
        timeout=timeout, verify=verify, follow_redirects=False
    )
    client.answer_limit = limit
    client.attempts = attempts
    client.deadline = deadline
    return client


def asked_wait(headers: Any) -> float | None:
    """The seconds an answer asks to wait before a retry (``retry-after-ms``, or
    ``Retry-After`` in seconds or as an HTTP date), or None when it asks nothing usable."""
    try:
        wait = float(headers.get("retry-after-ms", "")) / 1000
    except ValueError:
        said = headers.get("retry-after", "")
        try:
            wait = float(said)
        except ValueError:
            try:
                when = email.utils.parsedate_to_datetime(said)
            except (TypeError, ValueError, IndexError):
                return None
            wait = when.timestamp() - time.time()
    return wait if math.isfinite(wait) else None


@functools.cache
def _bounded_class(base: type) -> type:
    class BoundedClient(base):  # type: ignore[misc, valid-type]
        answer_limit: int
        attempts: Attempts
        deadline: float | None

        async def send(self, request: Any, *, stream: bool = False, **options: Any) -> Any:
            self.attempts.count += 1
            # Nothing to decode: the limit then holds for the bytes that cross the wire too.
            request.headers["Accept-Encoding"] = "identity"
            response = await super().send(request, stream=True, **options)
            try:
                body = await _read(response, self.answer_limit)
            finally:
                await response.aclose()
            headers = [
                (k, v) for k, v in response.headers.multi_items() if k.lower() not in _FRAMING
            ]
            if response.status_code >= 400 and self._wait_is_past_the_deadline(response.headers):
                headers = [(k, v) for k, v in headers if k.lower() != "x-should-retry"]
                headers.append(("x-should-retry", "false"))
            whole = type(response)(
                response.status_code,
                headers=headers,
                content=body,
                request=request,
                extensions=response.extensions,
            )
            whole.elapsed = response.elapsed
            return whole

        def _wait_is_past_the_deadline(self, headers: Any) -> bool:
            wait = asked_wait(headers)
            if wait is None or self.deadline is None:
                return False
            return asyncio.get_running_loop().time() + wait > self.deadline

    return BoundedClient


async def _read(response: Any, limit: int) -> bytes:
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise AnswerTooLarge(int(declared))
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            raise AnswerTooLarge(None)
        chunks.append(chunk)
    return b"".join(chunks)


def http_module(sdk: ModuleType) -> ModuleType:
    """The ``httpx``-like package the library sends with (``httpx2`` or ``httpx``)."""
    for cls in sdk.DefaultAsyncHttpxClient.__mro__:
        root = cls.__module__.partition(".")[0]
        if root.startswith("httpx"):
            return __import__(root)
    raise ImportError(f"{sdk.__name__} does not send with httpx")


def ssl_context(http: ModuleType) -> ssl.SSLContext:
    """The verifying SSL context the library would make (made once, shared by every call:
    making one loads the certificate bundle, about 30 ms)."""
    create = getattr(http, "create_ssl_context", None)
    return create() if create is not None else ssl.create_default_context()


def run_sync(call: Coroutine[Any, Any, T]) -> T:
    """Run ``call`` to its end from synchronous code (the CLI, the explorer, a replay loop).

    In a thread that already runs an event loop (a notebook), it runs in a thread of its own.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # no loop here: the usual case (and no exception context to chain)
        running = False
    else:
        running = True
    if not running:
        return asyncio.run(call)
    outcome: list[Any] = []

    def target() -> None:
        try:
            outcome.append((True, asyncio.run(call)))
        except BaseException as error:  # handed to the caller's thread as it is
            outcome.append((False, error))

    thread = threading.Thread(target=target, name="provider-call")
    thread.start()
    thread.join()
    done, value = outcome[0]
    if not done:
        raise value
    return value
