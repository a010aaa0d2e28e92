"""The price options that ``replay``, ``graded`` and ``evaluate`` share: ``--model`` (an entry of
the price table) and ``--prices FILE`` (a table replacing the shipped one)."""

from __future__ import annotations

import argparse

from compactor.analyses.pricing import PRICES_ENV, ModelPrice, load_prices


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
