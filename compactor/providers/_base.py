"""What every provider does: one completion call, its usage, and failures as clear errors.

A :class:`Provider` wraps an official client library (``openai`` or ``anthropic``, the ``llm``
extra), imported when the provider is first called. The key is read from the environment
variable its configuration names at each call, and lives only inside that call's client. A call
is async (:meth:`Provider.acomplete`; :meth:`Provider.complete` runs it from synchronous code)
and ends within its deadline whatever the server does (:mod:`compactor.providers._http_client`).
Every failure of the call becomes a :class:`ProviderError` whose message names the provider and what
to do, never the key, and never chains the library's exception (which holds the HTTP request and
its headers). Every text from the provider, its answer's text as well as its error messages, is
searched for the key in every form and for masked copies and parts of it, which are redacted
(:mod:`compactor.providers._redaction`) before anything else sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import math
import os
import re
import ssl
import sys
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from compactor.errors import Problem, ProblemError
from compactor.providers._answers import WrongShape
from compactor.providers._config import ProviderConfig
from compactor.providers._http_client import (
    AnswerTooLarge,
    Attempts,
    asked_wait,
    bounded_client,
    http_module,
    run_sync,
    ssl_context,
)
from compactor.providers._redaction import Redactor
from compactor.wording import install_command

INSTALL_HINT = install_command("llm")
#: A key is sent in a header only; a provider that needs none still gets this placeholder,
#: because the client libraries refuse to start without a key.
KEYLESS = "no-key-configured"
#: Markers of a prompt over the model's context window, in the words of OpenAI, vLLM,
#: llama.cpp's server, LiteLLM and Anthropic.
_CONTEXT_WORDS = re.compile(
    r"context[ _-]?(length|window|size)|maximum context|prompt is too long|too many tokens"
    r"|exceed[s]? (the )?context|context limit",
    re.IGNORECASE,
)
_CONTEXT_CODES = {"context_length_exceeded", "exceed_context_size_error", "request_too_large"}
#: "maximum context length is 4096 tokens", "context limit: 9 + 8 > 4096", "n_ctx": 4096 ...
_WINDOW_NUMBER = re.compile(
    r"(?:maximum context length is|context (?:length|window|size) (?:of|is)|> ?)\s*(\d+)"
    r"|\"?n_ctx\"?\s*[:=]\s*(\d+)",
    re.IGNORECASE,
)
_MAX_QUOTED = 300


@dataclass(frozen=True)
class Completion:
    """One answer: its text and the usage the provider reported (None when it reported none)."""

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None


class ProviderError(ProblemError):
    """The provider could not be called or did not answer usefully; the message says why."""


class ProviderTimeout(ProviderError):
    """The provider did not answer in time, after every retry."""


class ProviderRefused(ProviderError):
    """The provider refused the request as asked (HTTP 400, 404, 413 or 422): an unknown model,
    a parameter it does not take. Another request may succeed where a retry would not."""


class ProviderAnswerInvalid(ProviderError):
    """The provider answered, but nothing usable: not JSON, not the API's shape, a redirect, or
    over the size limit. The endpoint does not speak the API as configured (check base_url) or
    needs a larger limit; the same call would fail again."""


class ContextWindowExceeded(ProviderError):
    """The prompt does not fit the model's context window; ``window_tokens`` when it said."""

    def __init__(self, message: str, window_tokens: int | None = None):
        super().__init__([Problem(message)])
        self.window_tokens = window_tokens


class Provider(ABC):
    """A configured provider; :meth:`complete` makes one call. Safe to share between threads
    and tasks: each call has a client of its own, closed when the call ends."""

    #: The official client library this kind of provider uses, its async client class, and its
    #: display name.
    library: str
    client_class: str
    label: str

    def __init__(self, config: ProviderConfig):
        self.config = config
        self._redact = Redactor(None)
        self._ssl: ssl.SSLContext | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.config.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config!r})"

    def complete(self, *, model: str, system: str, user: str, max_tokens: int) -> Completion:
        """:meth:`acomplete` from synchronous code."""
        return run_sync(
            self.acomplete(model=model, system=system, user=user, max_tokens=max_tokens)
        )

    async def acomplete(self, *, model: str, system: str, user: str, max_tokens: int) -> Completion:
        """One completion of ``user`` under ``system``, at most ``max_tokens`` long.

        The call ends within ``timeout_seconds`` whatever the provider does (its retries
        included); cancelling it closes its connection. Raises :class:`ContextWindowExceeded`
        when the prompt is over the model's window, :class:`ProviderTimeout` when no answer
        came in time, :class:`ProviderAnswerInvalid` for an answer that cannot be used,
        :class:`ProviderRefused` for a request refused as asked, :class:`ProviderError`
        otherwise.
        """
        # The deadline's clock starts now: importing the library (seconds, in the first call
        # of a process) is part of the call.
        deadline = asyncio.get_running_loop().time() + self.config.timeout_seconds
        try:
            async with asyncio.timeout_at(deadline):
                sdk = await self._load_library()
        except TimeoutError:
            raise self.error(
                f"did not answer within {self.config.timeout_seconds:g} s (0 attempts: loading "
                f"the {self.library} library took all of it); try again, or raise "
                "timeout_seconds in its configuration",
                ProviderTimeout,
            ) from None
        key = self._key()
        attempts = Attempts()
        client = self._new_client(sdk, key, attempts, deadline)
        try:
            async with asyncio.timeout_at(deadline):
                status, body = await self._send(
                    client, model=model, system=system, user=user, max_tokens=max_tokens
                )
        except TimeoutError:
            failure = self.timed_out(attempts.count)
        except AnswerTooLarge as refused:
            failure = self.too_large(refused.declared)
        except sdk.APIError as error:  # every error the library raises for a call
            failure = self._failure(error, sdk, model, attempts.count)
        else:
            return self._answer(status, body)
        finally:
            await client.close()
        raise failure from None

    def _new_client(self, sdk: ModuleType, key: str, attempts: Attempts, deadline: float) -> Any:
        # base_url and api_key are always explicit: the libraries would otherwise read
        # OPENAI_BASE_URL / ANTHROPIC_BASE_URL and their keys from the environment behind the
        # configuration.
        config = self.config
        http = http_module(sdk)
        with self._lock:
            if self._ssl is None:
                self._ssl = ssl_context(http)
            verify = self._ssl
        timeout = http.Timeout(
            config.timeout_seconds,
            connect=min(config.connect_timeout_seconds, config.timeout_seconds),
        )
        return getattr(sdk, self.client_class)(
            api_key=key,
            base_url=config.base_url,
            timeout=timeout,
            max_retries=config.max_retries,
            http_client=bounded_client(
                sdk,
                limit=config.max_answer_bytes,
                attempts=attempts,
                timeout=timeout,
                verify=verify,
                deadline=deadline,
            ),
        )

    @abstractmethod
    async def _send(
        self, client: Any, *, model: str, system: str, user: str, max_tokens: int
    ) -> tuple[int, bytes]:
        """Send the call; the answer's HTTP status and body (the library raised for errors)."""

    @abstractmethod
    def _parse(self, data: Any) -> Completion:
        """The completion in an answer's JSON; raises :class:`WrongShape` saying what is off."""

    def _answer(self, status: int, body: bytes) -> Completion:
        if not 200 <= status < 300:
            raise self._status_failure(status, "")
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):  # not UTF-8, not JSON, or nested beyond reason
            raise self.error(
                f"gave an answer that is not JSON, so not {self.label} response; check its "
                "base_url",
                ProviderAnswerInvalid,
            ) from None
        try:
            completion = self._parse(data)
        except WrongShape as wrong:
            raise self.error(
                f"gave an answer that is not {self.label} response ({wrong}); check its base_url",
                ProviderAnswerInvalid,
            ) from None
        # A provider may repeat the key in its answer too (a hostile or a careless one).
        return dataclasses.replace(completion, text=self._redact(completion.text))

    def preload(self) -> None:
        """Import the client library now, if it is installed: importing takes seconds, which a
        server must not spend inside its first call (on its event loop, past the deadline)."""
        with contextlib.suppress(ProviderError):  # not installed: the first call says so
            self._library()

    async def _load_library(self) -> ModuleType:
        """The client library; imported in a thread of its own when not imported yet, so that
        the call's deadline holds while it loads (the import goes on if the call ends)."""
        module = sys.modules.get(self.library)
        if module is not None and not getattr(module.__spec__, "_initializing", False):
            return module
        loop = asyncio.get_running_loop()
        loaded: asyncio.Future[ModuleType] = loop.create_future()

        def settle(outcome: tuple[bool, Any]) -> None:
            if not loaded.done():
                done, value = outcome
                loaded.set_result(value) if done else loaded.set_exception(value)

        def target() -> None:
            try:
                outcome: tuple[bool, Any] = (True, self._library())
            except BaseException as error:  # handed to the call as it is
                outcome = (False, error)
            with contextlib.suppress(RuntimeError):  # the call's loop has ended meanwhile
                loop.call_soon_threadsafe(settle, outcome)

        threading.Thread(target=target, name=f"import-{self.library}", daemon=True).start()
        return await loaded

    def _library(self) -> ModuleType:
        try:
            return __import__(self.library)
        except ImportError:
            raise self.error(
                f"needs the {self.library} package, which is not installed; install the llm "
                f"extra: {INSTALL_HINT}"
            ) from None

    def _key(self) -> str:
        env = self.config.api_key_env
        if env is None:
            return KEYLESS
        key = os.environ.get(env, "")
        if not key.strip():
            raise self.error(
                f"reads its key from the environment variable {env}, which is not set; set it "
                "in the environment of this process"
            )
        with self._lock:
            if self._redact.secret != key:
                self._redact = Redactor(key)
        return key

    def error(self, what: str, kind: type[ProviderError] = ProviderError) -> ProviderError:
        return kind([Problem(f"provider {self.name!r} {what}")])

    def redact(self, text: str) -> str:
        """``text`` with the key in any form replaced, on one line, at most 300 characters."""
        text = " ".join(self._redact(text).split())
        return text if len(text) <= _MAX_QUOTED else text[: _MAX_QUOTED - 1] + "…"

    def timed_out(self, attempts: int = 1) -> ProviderTimeout:
        error = self.error(
            f"did not answer within {self.config.timeout_seconds:g} s ({_tries(attempts)}); "
            "try again, or raise timeout_seconds in its configuration",
            ProviderTimeout,
        )
        assert isinstance(error, ProviderTimeout)
        return error

    def unreachable(self, attempts: int = 1) -> ProviderError:
        return self.error(
            f"could not be reached ({_tries(attempts)}); check that it is running and that "
            "its base_url is right"
        )

    def too_large(self, declared: int | None) -> ProviderError:
        size = f" ({declared:,} declared)" if declared is not None else ""
        return self.error(
            f"answered with more than {self.config.max_answer_bytes:,} bytes{size}, the most "
            "its configuration accepts (max_answer_bytes); the answer was refused",
            ProviderAnswerInvalid,
        )

    def _failure(
        self, error: Exception, sdk: ModuleType, model: str, attempts: int
    ) -> ProviderError:
        if isinstance(error, sdk.APITimeoutError):
            return self.timed_out(attempts)
        if isinstance(error, sdk.APIConnectionError):
            return self.unreachable(attempts)
        if not isinstance(error, sdk.APIStatusError):
            return self.error(
                f"gave an answer that is not {self.label} response: {self.redact(str(error))}",
                ProviderAnswerInvalid,
            )
        status = error.status_code
        said = self.redact(_message_of(error.body) or "")
        quoted = f": {said}" if said else ""
        if status in (400, 413) and _is_context_error(error.body, said):
            window = _window_of(said)
            return ContextWindowExceeded(
                f"provider {self.name!r}: the prompt is over the context window of {model!r}"
                f"{quoted}",
                window,
            )
        wait = asked_wait(error.response.headers)
        return self._status_failure(status, quoted, model, attempts, wait)

    def _status_failure(
        self,
        status: int,
        quoted: str,
        model: str = "",
        attempts: int = 1,
        wait: float | None = None,
    ) -> ProviderError:
        tries = _tries(attempts)
        later = (
            f"in {math.ceil(wait):,} s, as it asks" if wait is not None and wait > 0 else "later"
        )
        kind: type[ProviderError] = ProviderError
        if 300 <= status < 400:
            kind = ProviderAnswerInvalid
            advice = (
                "a redirect, which is not followed (a key is never sent on to another "
                "address); set base_url to the address it points to"
            )
        elif status in (401, 403):
            where = self.config.api_key_env or "(none: set api_key_env in the configuration)"
            advice = f"check the key in the environment variable {where}"
        elif status == 404:
            kind, advice = ProviderRefused, f"check the model name ({model!r}) and the base_url"
        elif status in (400, 413, 422):
            kind, advice = ProviderRefused, "it refused the request as asked"
        elif status == 429:
            advice = f"it is rate limiting or out of quota ({tries}); try again {later}"
        elif status >= 500:
            advice = f"it failed on its side ({tries}); try again {later}"
        else:
            advice = "it refused the request"
        return self.error(f"answered HTTP {status}{quoted}; {advice}", kind)


def _tries(attempts: int) -> str:
    return f"{attempts} attempt{'' if attempts == 1 else 's'}"


def _message_of(body: Any) -> str | None:
    """The error message in a provider's error body (OpenAI's and Anthropic's shapes)."""
    if isinstance(body, dict):
        inner = body.get("error")
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"]
        if isinstance(inner, str):
            return inner
        if isinstance(body.get("message"), str):
            return body["message"]
        return None
    return body if isinstance(body, str) else None


def _is_context_error(body: Any, message: str) -> bool:
    inner = body.get("error") if isinstance(body, dict) else None
    details = inner if isinstance(inner, dict) else body if isinstance(body, dict) else {}
    codes = {str(details.get("code", "")), str(details.get("type", ""))}
    return bool(codes & _CONTEXT_CODES) or bool(_CONTEXT_WORDS.search(message))


def _window_of(message: str) -> int | None:
    """The window the provider's message states, when it states one."""
    found = [int(n) for m in _WINDOW_NUMBER.finditer(message) for n in m.groups() if n]
    return found[-1] if found else None
