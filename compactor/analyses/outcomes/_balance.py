"""Role balance (SPEC part D): for each role, its share of the input's characters and of the
output's, so a setting that keeps the assistant's words and loses the user's shows it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from compactor.contract import ROLES
from compactor.engine import CompactionResult


@dataclass(frozen=True)
class RoleShare:
    role: str
    input_chars: int
    output_chars: int
    input_share: float
    output_share: float | None  # None when nothing is returned

    def to_dict(self) -> dict[str, Any]:
        return {
            "input_chars": self.input_chars,
            "output_chars": self.output_chars,
            "input_share": round(self.input_share, 6),
            "output_share": None if self.output_share is None else round(self.output_share, 6),
        }


@dataclass(frozen=True)
class RoleBalance:
    roles: tuple[RoleShare, ...]  # the roles of the input, in the schema's order

    def to_dict(self) -> dict[str, Any]:
        return {r.role: r.to_dict() for r in self.roles}


def role_balance_of(
    roles: Sequence[str], contents: Sequence[str], returned: Sequence[int | None]
) -> RoleBalance:
    """Role balance of a strategy that returned ``returned[i]`` characters of message ``i``
    (None when removed)."""
    total_in = sum(map(len, contents))
    total_out = sum(r for r in returned if r is not None)
    shares = []
    for role in ROLES:
        mine = [i for i, r in enumerate(roles) if r == role]
        if not mine:
            continue
        chars_in = sum(len(contents[i]) for i in mine)
        chars_out = sum(returned[i] or 0 for i in mine)
        shares.append(
            RoleShare(
                role,
                chars_in,
                chars_out,
                chars_in / total_in if total_in else 0.0,
                chars_out / total_out if total_out else None,
            )
        )
    return RoleBalance(tuple(shares))


def role_balance(result: CompactionResult) -> RoleBalance:
    """Role balance of one compaction."""
    request = result.request
    returned = [t.chars if t.survived else None for t in result.messages]
    return role_balance_of(request.roles, request.contents, returned)
