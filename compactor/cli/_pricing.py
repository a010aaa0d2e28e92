"""The price options that ``replay``, ``graded`` and ``evaluate`` share: ``--model`` (an entry of
the price table) and ``--prices FILE`` (a table replacing the shipped one)."""

from __future__ import annotations

import argparse
from typing import Any

from compactor.analyses.pricing import PRICES_ENV, ModelPrice, compaction_cost, load_prices
from compactor.text import estimate_tokens


def add_price_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("cost (docs/cost.md)")
    group.add_argument(
        "--model",
        metavar="NAME",
        help="price every model call at this model's entry of the price table (for example "
        "claude-sonnet-5-5, gpt-6-2-sol): cache reads, cache writes, uncached input and output",
    )
    group.add_argument(
        "--prices",
        metavar="FILE",
        help=f"a price table (TOML) replacing the shipped one (else ${PRICES_ENV}, else the "
        "shipped compactor/data/prices.toml); alone, prices at its first model",
    )
    group.add_argument(
        "--cache-lifetime",
        type=int,
        metavar="SECONDS",
        help="the cache write to price, by its lifetime (default: the model's shortest)",
    )


def priced_model(args: argparse.Namespace) -> ModelPrice | None:
    """The model the arguments price at (None when neither ``--model`` nor ``--prices`` is
    given); a PricesError (exit 2) for a bad file or an unknown model."""
    if args.model is None and args.prices is None:
        return None
    table = load_prices(args.prices)
    return table.get(args.model) if args.model is not None else table.models[0]


def price_row(row: dict[str, Any], model: ModelPrice, lifetime_seconds: int | None) -> None:
    """Add to a corpus row what the call after its compaction costs at ``model``
    (``cost_model``, ``cost_usd``): the context it kept, written to the cache (its tokens,
    ``output_tokens`` with --encoding, else characters / 4). A row does not say where the
    compacted history first differs from the one before, so all of it is counted as written:
    an upper bound (docs/cost.md)."""
    tokens = row.get("output_tokens")
    if tokens is None:
        tokens = estimate_tokens(row.get("output_chars") or 0)
    cost = compaction_cost(0, tokens, model, lifetime_seconds=lifetime_seconds).cost
    row["cost_model"] = model.key
    row["cost_usd"] = cost.total if cost is not None else None
