"""What the Output page offers: the returned messages as a table, the setting as a
``compaction.toml``, and ready-to-run code that uses it: ``compactor.shrink`` in an agent, the
LangChain middleware, and the request it makes sent to the service (a curl command, a Python
script).

Small requests are written into the snippet; large ones are read from the downloaded
``request.json``, so a snippet never holds megabytes of text.
"""

from __future__ import annotations

import pprint
import shlex
import textwrap
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import pandas as pd

from compactor.contract import AGENT_LIMITS, MEMORY_COMPACT, PARAMETERS, budget_range
from compactor.errors import Problem
from compactor.formats import Exported, export
from compactor.input import dumps
from compactor.strategies import SETTING_FILE_NAME, Setting, SettingError, setting_toml
from compactor.wording import install_command
from explorer.session.conversation import Conversation

ENDPOINT = "/v1/memory-compact"
#: The service's agent-mode endpoint (whole sessions over the contract's limits).
AGENT_ENDPOINT = "/v1/memory-compact/agent"
DEFAULT_BASE_URL = "http://127.0.0.1:8080"
#: Requests whose JSON is longer than this are referenced as request.json instead of inlined.
INLINE_LIMIT = 4_000
REQUEST_FILE = "request.json"


def endpoint_url(base_url: str, agent: bool = False) -> str | None:
    """The endpoint under ``base_url`` (the agent mode's with ``agent``), or None when that is
    not an http(s) address."""
    base = base_url.strip()
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        return None
    if any(c.isspace() for c in base):
        return None
    return base.rstrip("/") + (AGENT_ENDPOINT if agent else ENDPOINT)


def request_json(request: dict[str, Any], indent: int | None = 2) -> str:
    """The request as the file downloads and the service reads it (UTF-8 JSON)."""
    return dumps(request, indent)


def curl_command(
    url: str,
    request: dict[str, Any],
    inline_limit: int = INLINE_LIMIT,
    request_file: str = REQUEST_FILE,
) -> str:
    """A curl command that POSTs ``request`` to ``url``; the body inline when it is small, else
    read from ``request_file`` (the downloaded request)."""
    body = dumps(request, indent=None)
    data = shlex.quote(body) if len(body) <= inline_limit else f"@{shlex.quote(request_file)}"
    return (
        f"curl -sS -X POST {shlex.quote(url)} \\\n"
        "  -H 'Content-Type: application/json' \\\n"
        f"  --data-binary {data}"
    )


def python_snippet(
    url: str,
    request: dict[str, Any],
    inline_limit: int = INLINE_LIMIT,
    request_file: str = REQUEST_FILE,
) -> str:
    """A Python script (httpx) that POSTs ``request`` to ``url`` and prints the outcome."""
    body = dumps(request, indent=None)
    if len(body) <= inline_limit:
        load = "REQUEST = " + pprint.pformat(request, width=96, sort_dicts=False)
        imports = "import httpx"
    else:
        load = f'REQUEST = json.loads(Path({dumps(request_file, None)}).read_text("utf-8"))'
        imports = "import json\nfrom pathlib import Path\n\nimport httpx"
    return (
        f"{imports}\n\n{load}\n\n"
        f"response = httpx.post({url!r}, json=REQUEST, timeout=30)\n"
        "response.raise_for_status()\n"
        "result = response.json()\n"
        'print(result["loss"], result["budget"], sep="\\n")\n'
    )


#: The columns of the returned-messages table, in the response's own field names.
OUTPUT_COLUMNS = ("index", "id", "role", "kept", "protected", "original_chars", "chars", "content")


def output_rows(response: dict[str, Any]) -> pd.DataFrame:
    """The response's messages, one row each; a message without an id has an empty id cell."""
    rows = [{**m, "id": m.get("id", "")} for m in response["messages"]]
    return pd.DataFrame(rows, columns=list(OUTPUT_COLUMNS))


#: A snippet longer than this many screen lines is shown in a box of :data:`SNIPPET_HEIGHT`.
SNIPPET_LINES = 12
#: Pixels of a long snippet's box on screen (it scrolls inside; the copy button copies it all).
SNIPPET_HEIGHT = 280


def snippet_height(code: str, wrap_at: int | None = None) -> int | str:
    """The height for ``st.code``: as tall as a short snippet, :data:`SNIPPET_HEIGHT` pixels
    for a long one. ``wrap_at`` counts a longer line as the screen lines it wraps onto."""
    width = wrap_at or 0
    lines = sum(max(1, -(-len(line) // width)) if width else 1 for line in code.splitlines())
    return "content" if lines <= SNIPPET_LINES else SNIPPET_HEIGHT


#: The provider formats the Output page downloads, with a label each.
PROVIDERS = {
    "openai": "OpenAI Chat Completions",
    "anthropic": "Anthropic Messages",
    "vercel": "Vercel AI SDK",
    "sharegpt": "ShareGPT",
}


def file_stem(conv: Conversation) -> str:
    """The start of every download's name: the loaded file's (made safe), else the sample's."""
    name = conv.file_name or conv.sample or "conversation"
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    stem = stem.replace(" ", "-") or "conversation"
    return f"{stem}-record{conv.record}" if conv.record is not None else stem


def download_name(conv: Conversation, what: str) -> str:
    """``tau_airline-record2.openai.json``: the file, then what the download holds."""
    return f"{file_stem(conv)}.{what}.json"


def provider_export(
    conv: Conversation, request: dict[str, Any], response: dict[str, Any], target: str
) -> Exported:
    """The compacted conversation in a provider's format (orphan halves dropped, noted)."""
    empty = {call for _, call in conv.removed_results}
    return export(response, request, target, empty_results=empty)


# --- the setting -----------------------------------------------------------------------------

SETTING_FILE = SETTING_FILE_NAME
SETTING_MIME = "application/toml"
#: The parameters a memory-compact setting holds beside its budget.
SETTING_PARAMETERS = tuple(name for name in PARAMETERS if name != "budget_chars")


def sidebar_setting(
    params: Mapping[str, Any], name: str | None = None, note: str | None = None
) -> Setting:
    """The sidebar's five parameters as a memory-compact setting (its budget in characters;
    over the contract's 400,000 it says ``limits = "agent"``); an empty name or note is none."""
    budget = int(params["budget_chars"])
    return Setting(
        strategy=MEMORY_COMPACT,
        params={k: list(params[k]) if k == "keep_roles" else params[k] for k in SETTING_PARAMETERS},
        budget_chars=budget,
        limits=AGENT_LIMITS if budget > budget_range()[1] else None,
        name=(name or "").strip() or None,
        note=(note or "").strip() or None,
    )


def setting_file(setting: Setting) -> str:
    """The ``compaction.toml`` the "Download setting" buttons save."""
    return setting_toml(setting)


def setting_words(setting: Setting) -> str:
    """The setting in one line: ``memory-compact at 4,000 characters, keep_last_n 2, ...``."""
    kind, size = setting.budget
    budget = f"{size:,} characters" if kind == "chars" else f"{size:,} {setting.encoding} tokens"
    params = ", ".join(
        f"{k} {'+'.join(v) or 'none' if isinstance(v, tuple | list) else v}"
        for k, v in setting.params.items()
    )
    return f"{setting.strategy} at {budget}" + (f", {params}" if params else "")


def setting_request(request: Mapping[str, Any], setting: Setting) -> dict[str, Any]:
    """The memory-compact request the service takes for ``request``'s messages under a
    memory-compact ``setting`` with a budget in characters (what the curl snippet sends)."""
    return {
        "messages": list(request["messages"]),
        "budget_chars": setting.budget_chars,
        **{k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()},
    }


def sidebar_values(setting: Setting, budget_chars: int | None = None) -> dict[str, Any]:
    """The sidebar's values a setting gives ("Use this setting", an upload): its parameters,
    and its budget (``budget_chars``: the characters a budget in tokens comes to). The others
    stay as they are. SettingError for a setting the sidebar cannot hold (another strategy)."""
    if setting.strategy != MEMORY_COMPACT:
        raise SettingError(
            [
                Problem(
                    f"names {setting.strategy}; the sidebar sets memory-compact's parameters "
                    "(compare the strategies on the Strategies page)",
                    path="strategy",
                )
            ]
        )
    values = {k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()}
    budget = setting.budget_chars if budget_chars is None else budget_chars
    return values | ({} if budget is None else {"budget_chars": budget})


def shrink_snippet(setting: Setting, setting_file: str = SETTING_FILE) -> str:
    """Python for an agent: ``compactor.shrink`` with the downloaded setting file."""
    return (
        "from compactor import shrink\n\n"
        + _comment(f'{setting_file}, saved with "Download setting": {setting_words(setting)}')
        + f"SETTING = {dumps(setting_file, None)}\n\n\n"
        "def history_to_send(messages):\n"
        '    """The history to send the model: OpenAI, Anthropic, Vercel AI SDK, ShareGPT or\n'
        '    LangChain messages in, the same format out, each tool call with its result."""\n'
        "    return shrink(messages, SETTING)\n"
    )


def langchain_snippet(setting: Setting, setting_file: str = SETTING_FILE) -> str:
    """Python for a LangChain v1 agent: the middleware that shrinks before every model call."""
    return (
        f"# {install_command('langchain')}  (in this project's folder; LangChain v1)\n"
        "from langchain.agents import create_agent\n\n"
        "from compactor.integrations import ShrinkMiddleware\n\n"
        + _comment(f"{setting_file}: {setting_words(setting)}")
        + "agent = create_agent(\n"
        '    model="openai:gpt-4o",\n'
        "    tools=[],  # your tools\n"
        f"    middleware=[ShrinkMiddleware({dumps(setting_file, None)})],  # before each call\n"
        ")\n"
    )


def _comment(text: str) -> str:
    return "".join(f"# {line}\n" for line in textwrap.wrap(text, 86))
