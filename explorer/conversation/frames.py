"""Which parameters a new conversation opens with: the file's own where it states them, the
user's where they tuned the sidebar, and otherwise the conversation's own (what Reset gives it),
with the sentence that says which."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compactor.contract import PARAMETERS
from compactor.formats import Conversion
from explorer.session.linkvalues import clean_float, format_threshold


def same_params(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two sets of parameters are the same setting (roles in any order, a threshold
    without a slider's binary noise)."""

    def setting(params: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(
            frozenset(params[name])
            if name == "keep_roles"
            else clean_float(params[name])
            if name == "duplicate_threshold"
            else params[name]
            for name in PARAMETERS
        )

    return setting(a) == setting(b)


def _shown(name: str, value: Any) -> str:
    if name == "keep_roles":
        return ", ".join(value) or "none"
    if name == "duplicate_threshold":
        return format_threshold(value)
    return f"{int(value):,}"


def own_params_notice(conversion: Conversion, own: Mapping[str, Any]) -> str:
    """Why a new conversation opens with its own parameters, and what they are."""
    given = [name for name in PARAMETERS if name in conversion.params_given]
    values = "; ".join(f"{name} {_shown(name, own[name])}" for name in PARAMETERS)
    whence = []
    if given:
        whence.append(f"{', '.join(given)} from the file")
    if "budget_chars" not in given:
        whence.append("budget_chars about half its characters")
    if len(given) + ("budget_chars" not in given) < len(PARAMETERS):
        whence.append("the others the schema's defaults")
    return (
        "The sidebar held the parameters the previous conversation came with, unchanged, so "
        f"this one opens with its own, as Reset parameters gives them: {values} "
        f"({', '.join(whence)}). Change any of them in the sidebar."
    )


def choose_params(
    conversion: Conversion,
    own: Mapping[str, Any],
    current: Mapping[str, Any],
    untouched: bool = False,
) -> tuple[dict[str, Any], str]:
    """The parameters to load with, and a sentence saying which were used.

    The file's own where it states them, and for the others the user's, unless the sidebar
    still holds the parameters the previous conversation came with (``untouched``: nothing was
    tuned), when the new conversation gets its own (``own``: what Reset gives it). A sample's
    ``budget_chars`` of 400 is no setting for a conversation of 170,000 characters.
    """
    given = [name for name in PARAMETERS if name in conversion.params_given]
    if len(given) == len(PARAMETERS):
        return dict(own), "The file's own parameters are used (it states all of them)."
    if untouched:
        return dict(own), own_params_notice(conversion, own)
    chosen = {name: (own[name] if name in given else current[name]) for name in PARAMETERS}
    if not given:
        return chosen, "The file states no parameters, so your current parameters are kept."
    kept = [name for name in PARAMETERS if name not in given]
    return chosen, (
        f"The file's own {', '.join(given)} {'is' if len(given) == 1 else 'are'} used; your "
        f"{', '.join(kept)} {'is' if len(kept) == 1 else 'are'} kept."
    )
