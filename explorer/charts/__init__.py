"""Altair chart builders: a data frame in, an ``alt.Chart`` out, so a test can read the spec."""
