"""The explorer's UI, in folders by layer: session/ (state, URL, cache), frames/ (pure data
frames), charts/ (Altair), widgets/ (Streamlit pieces pages share); theme.py and navigation.py
are the vocabulary every layer reads.

The engine (``compactor``) decides; this package only turns its results into data frames,
Altair charts and safe text, so every page is a thin script that composes these helpers.
"""
