"""The explorer's UI. What several pages share is in folders by layer: session/ (state, URL,
cache), frames/ (pure data frames), charts/ (Altair), report/ (the HTML report a customer
keeps, pure), widgets/ (Streamlit pieces pages share);
theme.py and navigation.py are the vocabulary every layer reads. What one page alone uses sits
beside it in a folder per page family (corpus/, replay/, walkthrough/, conversation/,
overview/, output/, timeline/, strategies/, graded/): its widgets, and its frames
and charts, as pure as the shared ones. A family imports the shared folders and itself, never
another family.

The engine (``compactor``) decides; this package only turns its results into data frames,
Altair charts and safe text, so every page is a thin script that composes these helpers.
"""
