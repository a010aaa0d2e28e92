"""Altair chart builders shared by pages: a data frame in, an ``alt.Chart`` out, so a test can read
the spec (a page's own charts are in its family's folder, ``explorer.corpus.charts``)."""
