"""What every provider does: one completion call, its usage, and failures as clear errors.

A :class:`Provider` wraps an official client library (``openai`` or ``anthropic``, the ``llm``
extra), imported when the provider is first called. The key is read then from the environment
variable its configuration names, and lives only inside that client. Every failure of the call
becomes a :class:`ProviderError` whose message names the provider and what to do, never the key
(any text from the provider is searched for the key and redacted), and never chains the
library's exception (which holds the HTTP request and its headers).
"""

from __future__ import annotations

import os
import re
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from compactor.errors import Problem, ProblemError
from compactor.providers.config import ProviderConfig

INSTALL_HINT = 'pip install -e ".[llm]"'
#: A key is sent in a header only; a provider that needs none still gets this placeholder,
#: because the client libraries refuse to start without a key.
KEYLESS = "no-key-configured"
_REDACTED = "[redacted]"
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


class ContextWindowExceeded(ProviderError):
    """The prompt does not fit the model's context window; ``window_tokens`` when it said."""

    def __init__(self, message: str, window_tokens: int | None = None):
        super().__init__([Problem(message)])
        self.window_tokens = window_tokens


class Provider(ABC):
    """A configured provider; :meth:`complete` makes one call. Safe to share between threads."""

    #: The official client library this kind of provider uses, its client class, and its
    #: display name.
    library: str
    client_class: str
    label: str

    def __init__(self, config: ProviderConfig):
        self.config = config
        self._client: Any = None
        self._secret: str | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.config.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config!r})"

    def complete(self, *, model: str, system: str, user: str, max_tokens: int) -> Completion:
        """One completion of ``user`` under ``system``, at most ``max_tokens`` long.

        Raises :class:`ContextWindowExceeded` when the prompt is over the model's window,
        :class:`ProviderTimeout` when no answer came in time, :class:`ProviderError` otherwise.
        """
        client, sdk = self._connected()
        try:
            return self._call(client, model=model, system=system, user=user, max_tokens=max_tokens)
        except ProviderError:  # the answer came but held no summary (see _call)
            raise
        except sdk.APIError as error:  # every error the library raises for a call
            failure = self._failure(error, sdk, model)
        except ValueError:  # a 200 answer whose body is not JSON, or not the expected shape
            failure = self.error(f"gave an answer that is not {self.label} response")
        raise failure from None

    def _new_client(self, sdk: ModuleType, key: str) -> Any:
        # base_url and api_key are always explicit: the libraries would otherwise read
        # OPENAI_BASE_URL / ANTHROPIC_BASE_URL and their keys from the environment behind the
        # configuration.
        return getattr(sdk, self.client_class)(
            api_key=key,
            base_url=self.config.base_url,
            timeout=self.config.timeout_seconds,
            max_retries=self.config.max_retries,
        )

    @abstractmethod
    def _call(
        self, client: Any, *, model: str, system: str, user: str, max_tokens: int
    ) -> Completion: ...

    def _connected(self) -> tuple[Any, ModuleType]:
        sdk = self._library()
        with self._lock:
            if self._client is None:
                key = self._key()
                self._client = self._new_client(sdk, key)
                self._secret = None if key == KEYLESS else key
        return self._client, sdk

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
        return key

    def error(self, what: str, kind: type[ProviderError] = ProviderError) -> ProviderError:
        return kind([Problem(f"provider {self.name!r} {what}")])

    def redact(self, text: str) -> str:
        """``text`` with the key (if it is in it) replaced, on one line, at most 300 characters."""
        if self._secret:
            text = text.replace(self._secret, _REDACTED)
        text = " ".join(text.split())
        return text if len(text) <= _MAX_QUOTED else text[: _MAX_QUOTED - 1] + "…"

    def timed_out(self) -> ProviderTimeout:
        error = self.error(
            f"did not answer within {self.config.timeout_seconds:g} s ({self._tries()}); try "
            "again, or raise timeout_seconds in its configuration",
            ProviderTimeout,
        )
        assert isinstance(error, ProviderTimeout)
        return error

    def unreachable(self) -> ProviderError:
        return self.error(
            f"could not be reached ({self._tries()}); check that it is running and that its "
            "base_url is right"
        )

    def _tries(self) -> str:
        retries = self.config.max_retries
        return f"{retries + 1} attempt{'s' if retries else ''}"

    def _failure(self, error: Exception, sdk: ModuleType, model: str) -> ProviderError:
        config = self.config
        tries = self._tries()
        if isinstance(error, sdk.APITimeoutError):
            return self.timed_out()
        if isinstance(error, sdk.APIConnectionError):
            return self.unreachable()
        if not isinstance(error, sdk.APIStatusError):
            return self.error(
                f"gave an answer that is not {self.label} response: {self.redact(str(error))}"
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
        kind: type[ProviderError] = ProviderError
        if status in (401, 403):
            where = config.api_key_env or "(none: set api_key_env in the configuration)"
            advice = f"check the key in the environment variable {where}"
        elif status == 404:
            kind, advice = ProviderRefused, f"check the model name ({model!r}) and the base_url"
        elif status in (400, 413, 422):
            kind, advice = ProviderRefused, "it refused the request as asked"
        elif status == 429:
            advice = f"it is rate limiting or out of quota ({tries}); try again later"
        elif status >= 500:
            advice = f"it failed on its side ({tries}); try again later"
        else:
            advice = "it refused the request"
        return self.error(f"answered HTTP {status}{quoted}; {advice}", kind)


def reported_count(value: Any) -> int | None:
    """A token count from a response's usage, or None when it is missing or not a count."""
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return value if ok else None


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
