"""The arguments that override a request's parameters, shared by the commands that compact."""

from __future__ import annotations

import argparse
from typing import Any

from compactor.contract import RANGES, ROLES

#: Parameter -> (flag, type, metavar). Values are checked by the schema, as any request's are.
FLAGS = {
    "budget_chars": ("--budget-chars", int, "N"),
    "keep_last_n": ("--keep-last-n", int, "N"),
    "keep_roles": ("--keep-roles", str, "ROLES"),
    "duplicate_threshold": ("--duplicate-threshold", float, "X"),
    "max_message_chars": ("--max-message-chars", int, "N"),
}


def _range(name: str) -> str:
    low, high = RANGES[name]
    return f"{low:,} to {high:,}" if isinstance(low, int) else f"{low} to {high}"


def add_parameter_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "parameters", "override the request's own (or, for a file without them, the defaults)"
    )
    for name, (flag, kind, metavar) in FLAGS.items():
        if name == "keep_roles":
            text = f"comma-separated roles to protect ({', '.join(ROLES)}; '' for none)"
        else:
            text = f"{name} ({_range(name)})"
        group.add_argument(flag, dest=name, type=kind, metavar=metavar, default=None, help=text)


def overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The parameters given on the command line (the schema checks them with the request)."""
    out: dict[str, Any] = {}
    for name in FLAGS:
        value = getattr(args, name, None)
        if value is None:
            continue
        if name == "keep_roles":
            value = [role.strip() for role in value.split(",") if role.strip()]
        out[name] = value
    return out
