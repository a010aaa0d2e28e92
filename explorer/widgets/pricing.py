"""The price controls pages share: the model to price at, and a price table the user uploads
in place of the shipped one (docs/cost.md); the table itself in an expander, with sources."""

from __future__ import annotations

import streamlit as st

from compactor.analyses.pricing import (
    ModelPrice,
    PricesError,
    PriceTable,
    load_prices,
    prices_from_toml,
)
from explorer.frames import cost as cost_frames
from explorer.widgets import common

MODEL_KEY = "price_model"
UPLOAD_KEY = "price_table_upload"
#: The model priced at first: the first of the shipped table with both prices.
DEFAULT_MODEL = "claude-sonnet-5-5"


def price_table() -> PriceTable:
    """The uploaded table when one was uploaded and is valid, else the shipped one (or the one
    COMPACTOR_PRICES names); an invalid upload's problems are shown, with file and line."""
    upload = st.session_state.get(UPLOAD_KEY)
    if upload is not None:
        try:
            return prices_from_toml(upload.getvalue().decode("utf-8", "replace"), upload.name)
        except PricesError as error:
            common.show_problems("The uploaded price table cannot be used", error.problems)
    try:
        return load_prices()
    except PricesError as error:
        common.show_problems("The price table cannot be used", error.problems)
        return PriceTable((), "none")


def choose_model(where: str) -> ModelPrice | None:
    """A model of the price table to price at (``where`` keys the widget per page), the upload
    and the table with its sources in an expander; None when the table has no model."""
    table = price_table()
    if not table.models:
        return None
    names = list(table.names())
    default = names.index(DEFAULT_MODEL) if DEFAULT_MODEL in names else 0
    key = f"{MODEL_KEY}_{where}"
    if st.session_state.get(key) not in names:
        st.session_state.pop(key, None)
    picked = st.selectbox(
        "Price at",
        names,
        index=default,
        key=key,
        format_func=lambda k: table.get(k).name,
        help="A model of the price table: its input, output, cache read and cache write "
        "prices per million tokens. Upload your own table below.",
    )
    with st.expander(f"Price table ({table.origin})"):
        st.file_uploader(
            "Replace with your own (TOML, as docs/cost.md describes)",
            type=["toml"],
            key=UPLOAD_KEY,
        )
        common.table(cost_frames.table_frame(table))
    return table.get(picked)
