"""UI helpers shared by the explorer's pages: state, loaders, cached engine calls, views, charts.

The engine (``compactor``) decides; this package only turns its results into data frames,
Altair charts and safe text, so every page is a thin script that composes these helpers.
"""
