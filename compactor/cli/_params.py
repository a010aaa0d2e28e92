"""The arguments that override a request's parameters, shared by the commands that compact: the
five parameter flags and ``--setting FILE`` (a ``compaction.toml``), whose values apply under the
flags (the request's own < the setting's < the flags)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from compactor.cli._io import MissingExtra
from compactor.cli._reports import write_lines
from compactor.contract import CONTRACT_LIMITS, MEMORY_COMPACT, RANGES, ROLES
from compactor.errors import IntegrationUnavailable, Problem, ProblemError

if TYPE_CHECKING:
    from compactor.strategies import Setting

# The strategies and the integrations are imported where a setting, a strategy's name or a
# budget in tokens is used: `compact` on a request needs neither (the CLI's start, issue 34).

#: Parameter -> (flag, type, metavar). Values are checked by the schema, as any request's are.
FLAGS = {
    "budget_chars": ("--budget-chars", int, "N"),
    "keep_last_n": ("--keep-last-n", int, "N"),
    "keep_roles": ("--keep-roles", str, "ROLES"),
    "duplicate_threshold": ("--duplicate-threshold", float, "X"),
    "max_message_chars": ("--max-message-chars", int, "N"),
}
SETTING_HELP = (
    "a compaction.toml (the explorer's 'Download setting'): its strategy, parameters and "
    "budget apply; the flags override them"
)


def _range(name: str) -> str:
    low, high = RANGES[name]
    return f"{low:,} to {high:,}" if isinstance(low, int) else f"{low} to {high}"


def add_setting_argument(parser: argparse.ArgumentParser | Any, help: str = SETTING_HELP) -> None:
    parser.add_argument("--setting", metavar="FILE", default=None, help=help)


WATCH_HELP = "also count PHRASE (case and spacing ignored) as an anchor; repeatable"


def add_watch_argument(parser: argparse.ArgumentParser, help: str = WATCH_HELP) -> None:
    """``--watch PHRASE``, repeatable: a phrase counted beside the anchors."""
    parser.add_argument("--watch", action="append", default=[], metavar="PHRASE", help=help)


def add_parameter_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "parameters",
        "override the request's own (or, for a file without them, the defaults); --setting "
        "FILE gives them from a compaction.toml, and a flag overrides the file",
    )
    add_setting_argument(group)
    for name, (flag, kind, metavar) in FLAGS.items():
        if name == "keep_roles":
            text = f"comma-separated roles to protect ({', '.join(ROLES)}; '' for none)"
        else:
            text = f"{name} ({_range(name)})"
        group.add_argument(flag, dest=name, type=kind, metavar=metavar, default=None, help=text)


def setting_of(args: argparse.Namespace) -> Setting | None:
    """The setting ``--setting FILE`` names (read once), or None. A file that cannot be used
    raises :class:`~compactor.strategies.SettingError` naming the file, key and line."""
    path = getattr(args, "setting", None)
    if path is None:
        return None
    cached = getattr(args, "_setting_read", None)
    if cached is None or cached[0] != path:
        from compactor.strategies import load_setting

        cached = (path, load_setting(path))
        args._setting_read = cached
        write_lines(cached[1].notes)  # an old strategy name: said once, on standard error
    return cached[1]


def strategy_name(text: str) -> str:
    """``--strategy``'s value as the registry names it now (argparse's ``type``): an old name
    still works, and one line on standard error gives its new one."""
    from compactor.strategies import current_strategy_name, strategy_renamed_notice

    notice = strategy_renamed_notice(text)
    if notice is not None:
        write_lines([f"--strategy: {notice}"])
    return current_strategy_name(text)


def setting_values(
    setting: Setting, path: str, command: str, any_strategy: bool = False
) -> dict[str, Any]:
    """The request parameters ``setting`` gives: a memory-compact setting's parameters and its
    budget in characters; another strategy's budget alone when the command runs ``any_strategy``
    (its own parameters are the command's to use), else ProblemError naming the file and key."""
    budget = {} if setting.budget_chars is None else {"budget_chars": setting.budget_chars}
    if setting.strategy != MEMORY_COMPACT and any_strategy:
        return budget
    if setting.strategy != MEMORY_COMPACT:
        raise ProblemError(
            [
                Problem(
                    f"{command} runs memory-compact, and this setting names "
                    f"{setting.strategy}: run it with 'python -m compactor shrink FILE "
                    f"--setting {path}', or replay or evaluate it",
                    path=f"{path}: strategy",
                )
            ]
        )
    return {k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()} | budget


def overrides(args: argparse.Namespace, any_strategy: bool = False) -> dict[str, Any]:
    """The parameters the command line gives: the setting's (``--setting``), then the flags
    over them (the schema checks them with the request). ``any_strategy``: the command runs
    the setting's strategy itself, and takes only its budget here."""
    out: dict[str, Any] = {}
    setting = setting_of(args)
    command = getattr(args, "command", None) or "this command"
    if setting is not None:
        out |= setting_values(setting, args.setting, command, any_strategy)
    return out | flag_values(args)


def budget_given(args: argparse.Namespace) -> bool:
    """Whether the command line gives a budget: --budget-chars, or a setting's (either kind)."""
    return getattr(args, "budget_chars", None) is not None or setting_of(args) is not None


def with_token_budget(
    args: argparse.Namespace, request: dict[str, Any], *, limits: str = CONTRACT_LIMITS
) -> dict[str, Any]:
    """``request`` with the character budget a setting's ``budget_tokens`` comes to: the
    largest whose output fits the tokens (:func:`~compactor.integrations._budget.fit_tokens`),
    unless --budget-chars is given. Without the tokens extra, :class:`MissingExtra`."""
    setting = setting_of(args)
    if setting is None or setting.budget_tokens is None or args.budget_chars is not None:
        return request
    from compactor.integrations import fit_tokens
    from compactor.text import DEFAULT_ENCODING

    try:
        fit = fit_tokens(
            request,
            setting.strategy,
            dict(setting.params),
            setting.budget_tokens,
            setting.encoding or DEFAULT_ENCODING,
            limits=limits,
        )
    except IntegrationUnavailable as missing:
        raise MissingExtra(str(missing)) from None
    return {**request, "budget_chars": fit.budget_chars}


def flag_values(args: argparse.Namespace) -> dict[str, Any]:
    """The parameters the five flags give, alone."""
    out: dict[str, Any] = {}
    for name in FLAGS:
        value = getattr(args, name, None)
        if value is None:
            continue
        if name == "keep_roles":
            value = [role.strip() for role in value.split(",") if role.strip()]
        out[name] = value
    return out
